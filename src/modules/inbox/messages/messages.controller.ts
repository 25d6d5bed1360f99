import { AFTER_SEQ_INVALID, AFTER_SEQ_WITH_BEFORE, MAX_AFTER_SEQ } from './message-cursor.js';
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import { SEND_CAP_REFUSALS } from '../outbound/send-caps.service.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ConversationId, MessageId } from '../dto/id.pipe.js';
import { EditMessageDto } from '../dto/edit-message.dto.js';
import { MessagePageResponse, MessageResponse } from '../dto/inbox-responses.dto.js';
import { BODY_CONTENT_DIFFER, SendMessageDto } from '../dto/message.dto.js';
import { CLOUD_FILE_REFUSALS, EMOJI_RULE, INTERACTIVE_NEEDS_CLOUD, STICKER_FORMAT, VOICE_FORMAT } from '../dto/message-request.schema.js';
import {
  CANNOT_EDIT,
  CANNOT_REACT,
  CANNOT_REVOKE,
  DELETED_NO_EDIT,
  DELETED_NO_REACTION,
  EDIT_TOO_LATE,
  MessageActionsService,
  NOT_OURS_TO_EDIT,
  NOT_OURS_TO_REVOKE,
  NOT_SENT,
  ONLY_TEXT_EDITS,
  REVOKE_TOO_LATE,
} from './message-actions.service.js';
import { MESSAGE_NOT_FOUND } from './message-target.js';
import { INVALID_REPLY_TO } from './outgoing-draft.js';
import { MessagesService } from './messages.service.js';
import { SendMessageService } from './send-message.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/conversations/:id/messages')
export class MessagesController {
  constructor(
    private readonly messages: MessagesService,
    private readonly sender: SendMessageService,
    private readonly actions: MessageActionsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Messages of a conversation, newest first, one page at a time' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 }, description: 'Messages per page' })
  @ApiQuery({
    name: 'before',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,120}$' },
    description: 'The `next_cursor` of the previous page (opaque): the page of messages older than it',
  })
  @ApiQuery({
    name: 'after_seq',
    required: false,
    schema: { type: 'integer', minimum: 0, maximum: MAX_AFTER_SEQ },
    description:
      'Fill a gap: the messages whose `seq` is greater than this, oldest first (ascending `seq`), at most `limit`; `next_cursor` is then always null ' +
      '(ask again with the last `seq` received; a page shorter than `limit` is the end). A non-negative integer; not together with `before`.',
  })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiErrors({
    400: ['invalid conversation id', 'limit must be an integer between 1 and 100', 'invalid cursor', AFTER_SEQ_INVALID, AFTER_SEQ_WITH_BEFORE],
    404: 'conversation not found',
  })
  list(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Query('limit') limit: unknown,
    @Query('before') before: unknown,
    @Query('after_seq') afterSeq: unknown,
  ): Promise<MessagePageResponse> {
    return this.messages.list(actor, id, limit, before, afterSeq);
  }

  @Post()
  @ApiOperation({
    summary:
      'Send a text (`body`, or its alias `content`), a file (`type` image, document, video, audio, voice or sticker, `media`, `caption`), a place (`location`), ' +
      'contact cards (`contacts`), a template (`type: "template"`, `template_id`, `parameters`), an interactive message, or react to a message (`reaction`)',
    description:
      'A template is stored and shown as its filled-in text; a Cloud API template goes out by name on a meta conversation, ' +
      "any other template as the filled-in text. Any message may quote one of the conversation's (`reply_to`). " +
      'A voice note must be Ogg/Opus and a sticker WebP, checked on the file itself (uploaded, or fetched from `media.url` on the scan channel); ' +
      "files are held to WhatsApp's sizes (16 MB audio and video, 500 KB a sticker), and on a Cloud API number to the provider's types and sizes " +
      '(images JPEG or PNG up to 5 MB, stickers up to 100 KB, 500 KB animated; see each type). Interactive messages need a Cloud API number. ' +
      "A voice note's, an Ogg/Opus file's and an MP4 video's playing time is " +
      'read from the file (`duration_s`). A reaction (`{reaction: {message_id, emoji}}`) stores no message: the answer (201) is the message ' +
      "reacted to, its `reactions` holding this number's.",
  })
  @ApiCreatedResponse({
    type: MessageResponse,
    description:
      'The message as stored; `status` moves on as the channel reports. On a number linked by QR code every new message waits in the ' +
      "number's paced outbound queue: the answer is `pending` with `queue_position`, and the message moves to `sent` at its turn " +
      '(docs: Sending). A Cloud API send the provider asked to retry later is answered the same way',
  })
  @ApiErrors({
    400: [
      'invalid conversation id',
      'message body is required',
      BODY_CONTENT_DIFFER,
      '`media is required for <type> messages`',
      'an invalid `media` (the text names the problem)',
      '`<noun> needs <family> mime_type` (an image `image/*`, a video `video/*`, audio `audio/*`)',
      VOICE_FORMAT,
      STICKER_FORMAT,
      "`media is larger than <n> bytes (<size>, the limit for <noun>)`: uploaded bytes over the kind's limit",
      ...CLOUD_FILE_REFUSALS,
      INTERACTIVE_NEEDS_CLOUD,
      '`location is required for location messages`, `location.latitude must be a number between -90 and 90`, `location.longitude must be a number between -180 and 180`, `location url must be an http or https address`',
      '`contacts is required for contacts messages`, `contacts must be a list of 1 to 10 cards`, `contacts[i].name must not be blank`, `contacts[i].phones[j] is not a phone number`',
      INVALID_REPLY_TO,
      'the message replied to was not sent: it has no WhatsApp id to quote',
      '`reaction is required for reaction messages`, `invalid reaction.message_id`, `reaction.emoji must be ' +
        EMOJI_RULE +
        '`, `a reaction has no text: send the text as a message of its own`, `a reaction replies to nothing: name the message in reaction.message_id`',
      CANNOT_REACT,
      NOT_SENT,
      DELETED_NO_REACTION,
      '`media.url` refused, nothing stored: `media url must be an http or https address`, `media url points to a private or local address`, `media is larger than <n> bytes`, `media url did not answer an image`, `media url host <host> could not be resolved`',
      'template_id is required for template messages',
      'invalid template id',
      '`template parameter {{n}} is missing (the template takes n)`, `template parameter {{n}} is empty`, `the template takes n parameters, m were given`',
      'parameters must be an array of at most 100 strings of at most 1024 characters',
    ],
    404: [
      'conversation not found',
      "`template not found`: unknown or another workspace's",
      `\`${MESSAGE_NOT_FOUND}\`: \`reply_to\` or \`reaction.message_id\` is not a message of this conversation`,
    ],
    409: 'chat is not connected',
    429: SEND_CAP_REFUSALS,
    500: 'the channel failed to send; the text says why, and the message is stored with `status: "failed"` (a reaction: nothing is stored)',
    502: 'the host of `media.url` failed (`media url answered HTTP <status>`, `media url could not be fetched`, …); nothing is stored, retry later',
  })
  send(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: SendMessageDto): Promise<MessageResponse> {
    return this.sender.send(actor, id, dto);
  }

  @Delete(':message_id')
  @ApiOperation({
    summary: 'Delete a message this number sent for everyone',
    description:
      'Where the channel allows it (the scan channel; the Cloud API has no delete), within 48 hours of sending it (WhatsApp allows about 60). ' +
      'The message stays in the inbox with `deleted: true` and its content; a repeat answers the same without asking the channel again.',
  })
  @ApiOkResponse({ type: MessageResponse, description: 'The message, `deleted: true`' })
  @ApiErrors({
    400: ['invalid conversation id', 'invalid message id', NOT_OURS_TO_REVOKE, NOT_SENT, REVOKE_TOO_LATE, CANNOT_REVOKE],
    404: ['conversation not found', MESSAGE_NOT_FOUND],
    409: 'chat is not connected',
    500: "`the channel failed to delete the message` (or the channel's own text); the message is not marked deleted",
  })
  revoke(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Param('message_id', MessageId) messageId: string): Promise<MessageResponse> {
    return this.actions.revoke(actor, id, messageId);
  }

  @Patch(':message_id')
  @ApiOperation({
    summary: 'Edit a text this number sent',
    description:
      "The new text (`body`, or `content`), within 15 minutes of sending it (WhatsApp's window), where the channel allows it (the scan channel). " +
      'The message answers `edited: true` with its new `content`.',
  })
  @ApiOkResponse({ type: MessageResponse, description: 'The message with its new text, `edited: true`' })
  @ApiErrors({
    400: [
      'invalid conversation id',
      'invalid message id',
      'message body is required',
      BODY_CONTENT_DIFFER,
      NOT_OURS_TO_EDIT,
      ONLY_TEXT_EDITS,
      DELETED_NO_EDIT,
      NOT_SENT,
      EDIT_TOO_LATE,
      CANNOT_EDIT,
    ],
    404: ['conversation not found', MESSAGE_NOT_FOUND],
    409: 'chat is not connected',
    500: "`the channel failed to edit the message` (or the channel's own text); the message keeps its text",
  })
  edit(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Param('message_id', MessageId) messageId: string,
    @Body() dto: EditMessageDto,
  ): Promise<MessageResponse> {
    return this.actions.edit(actor, id, messageId, dto);
  }
}
