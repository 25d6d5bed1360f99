import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { mediaUrlRefusal } from '../../../infra/net/media-url.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ChannelError, ChannelInputError, ChannelNotConnectedError, ChannelUpstreamError, type ChannelGateway } from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { InboxChangeOf, OutboundSource } from '../changes/inbox-change.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import type { SendMessageDto } from '../dto/message.dto.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import type { MessageResponse } from '../dto/inbox-responses.dto.js';
import { toMessageResponse } from '../inbox.mapper.js';
import { assertChannelTakes } from './interactive-draft.js';
import { inspectMedia } from './media-draft.js';
import { MessageActionsService } from './message-actions.service.js';
import { MessageRepository } from './message.repository.js';
import { MESSAGE_NOT_FOUND, toChannelConversation, toMessageTarget } from './message-target.js';
import { MessageTemplates } from './message-templates.js';
import { buildDraft, type OutgoingDraft, parseTemplateRequest, templateDraft } from './outgoing-draft.js';
import { isReaction, parseReaction } from './reaction-request.js';
import { withTemplateExtras } from './template-extras.js';

export const NOT_CONNECTED = 'chat is not connected';

/** Whose send it is, for `message.sent`'s `source`: an API key's, or a Console member's. */
export const sourceOf = (actor: WorkspaceActor): OutboundSource => (actor.via === 'api_key' ? 'api' : 'console');

/** The channel refused or failed a send; the message is stored as `failed` with the reason. */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly failedMessage: MessageEntity,
    readonly conversation: ConversationEntity,
    /** The channel was not connected after all (it dropped during the send). */
    readonly notConnected = false,
    /** Extra fields of the error body the channel gave (provider codes). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DeliveryFailed';
  }
}

export { toChannelConversation } from './message-target.js';

/** Sending: store as pending, hand to the channel, then record `sent` or `failed`. */
@Injectable()
export class SendMessageService {
  private readonly logger = new Logger('SendMessage');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly channels: ChannelRegistry,
    private readonly events: InboxEvents,
    private readonly templates: MessageTemplates,
    private readonly config: AppConfig,
    private readonly changes: InboxChangeHooks,
    private readonly actions: MessageActionsService,
  ) {}

  /**
   * POST /api/conversations/:id/messages. A channel failure is the contract's 500 with the reason.
   * A template is looked up (404) and filled in (400 for missing parameters) once the
   * conversation is known, before the connection is checked; so is the message a `reply_to`
   * names (404). A reaction stores no message: it answers the message reacted to.
   */
  async send(actor: WorkspaceActor, conversationId: string, dto: SendMessageDto): Promise<MessageResponse> {
    if (isReaction(dto)) return this.actions.react(actor, conversationId, parseReaction(dto));
    const template = dto.type === 'template' ? parseTemplateRequest(dto) : null;
    const plain = template ? null : buildDraft(dto);
    const mediaUrl = plain && 'media' in plain.outgoing ? plain.outgoing.media.url : undefined;
    const refusal = mediaUrl ? mediaUrlRefusal(mediaUrl, this.config.allowPrivateMediaUrls) : null;
    if (refusal) throw ApiError.badRequest(refusal);
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId);
    if (!conversation) throw ApiError.notFound('conversation not found');
    const drafted = template
      ? withTemplateExtras(
          templateDraft(await this.templates.render(actor.workspaceId, template.templateId, template.parameters), new Date(), template.replyToId),
          template.extras,
        )
      : plain!;
    assertChannelTakes(drafted, conversation.channel);
    const draft = await this.withReply(actor.workspaceId, conversation, drafted);
    const gateway = await this.channels.connected(actor.workspaceId, conversation.channel);
    if (!gateway) throw ApiError.conflict(NOT_CONNECTED);
    const ready = await this.prepare(actor.workspaceId, gateway, draft);
    try {
      const { message } = await this.deliver(actor.workspaceId, conversation, gateway, ready, sourceOf(actor), actor.userId);
      return toMessageResponse(message);
    } catch (error) {
      if (error instanceof DeliveryFailed) throw new ApiError(error.notConnected ? 409 : 500, error.message, error.details);
      throw error;
    }
  }

  /**
   * The message `reply_to` names, which must be one of this conversation's (404 otherwise, so
   * another conversation's or workspace's ids tell nothing) with a channel id to quote: the row
   * keeps both ids, the channel gets the message to quote.
   */
  async withReply(workspaceId: string, conversation: ConversationEntity, draft: OutgoingDraft): Promise<OutgoingDraft> {
    if (!draft.replyToId) return draft;
    const quoted = await this.messages.findInConversation(workspaceId, conversation.id, draft.replyToId);
    if (!quoted) throw ApiError.notFound(MESSAGE_NOT_FOUND);
    const target = toMessageTarget(quoted);
    if (!target) throw ApiError.badRequest('the message replied to was not sent: it has no WhatsApp id to quote');
    return {
      ...draft,
      row: { ...draft.row, quoted: { externalId: target.externalId, id: quoted.id } },
      outgoing: { ...draft.outgoing, replyTo: target },
      // A provider's template goes by name (`sendTemplate`), not as `outgoing`: it quotes the same message.
      ...(draft.template ? { template: { ...draft.template, replyTo: target } } : {}),
    };
  }

  /**
   * The channel's work before anything is stored (the scan channel downloads a `media.url`): what
   * it refuses is a 400, a media host that fails a 502, and nothing is stored either way. The
   * bytes it fetched are checked as uploaded ones are (size, a voice note's or a sticker's
   * format) and tell the row its size, type and playing time.
   */
  async prepare(workspaceId: string, gateway: ChannelGateway, draft: OutgoingDraft): Promise<OutgoingDraft> {
    if (!gateway.prepare || draft.template || draft.outgoing.type === 'text') return draft;
    let outgoing;
    try {
      outgoing = await gateway.prepare(workspaceId, draft.outgoing);
    } catch (error) {
      if (error instanceof ChannelInputError) throw ApiError.badRequest(error.message);
      if (error instanceof ChannelUpstreamError) throw new ApiError(502, error.message);
      throw error;
    }
    if (!('media' in outgoing) || !('media' in draft.outgoing)) return { ...draft, outgoing };
    const data = outgoing.media.data;
    if (!data || draft.outgoing.media.data) return { ...draft, outgoing };
    // Bytes fetched from a url: checked now, as uploaded ones were when drafted.
    const { mimeType, durationS } = inspectMedia(outgoing.type, data, outgoing.media.mimeType);
    return {
      ...draft,
      outgoing: { ...outgoing, media: { ...outgoing.media, mimeType }, durationS },
      row: { ...draft.row, mimeType: draft.row.mimeType || mimeType, fileSize: data.length, durationS },
    };
  }

  /**
   * Stores the message as pending (so it shows at once and survives a crash mid-send), sends it,
   * and records the outcome. Throws `DeliveryFailed` after recording a failure.
   */
  async deliver(
    workspaceId: string,
    conversation: ConversationEntity,
    gateway: ChannelGateway,
    draft: OutgoingDraft,
    source: OutboundSource,
    /** The Console member sending (null for keys and automations): the reports' first responses credit them. */
    senderId: string | null = null,
  ): Promise<{ message: MessageEntity; conversation: ConversationEntity }> {
    const stored = await this.changes.apply(
      workspaceId,
      'message.outbound',
      (tx) => this.messages.insertOutbound(workspaceId, conversation.id, draft.row, tx),
      (row) => ({ kind: 'message.outbound', message: row.message, conversation: row.conversation, source, senderId }),
    );
    await this.events.messageCreated(workspaceId, stored.message, stored.conversation);
    let externalId: string;
    let senderJid: string | null | undefined;
    try {
      const target = toChannelConversation(stored.conversation);
      const messageId = stored.message.id;
      ({ externalId, senderJid } =
        draft.template && gateway.sendTemplate
          ? await gateway.sendTemplate(workspaceId, target, { ...draft.template, messageId })
          : await gateway.send(workspaceId, target, { ...draft.outgoing, messageId }));
    } catch (error) {
      const reason = error instanceof ChannelError ? error.message : 'the channel failed to send the message';
      if (!(error instanceof ChannelError)) this.logger.error({ err: error, workspaceId, messageId: stored.message.id }, 'send failed');
      // The failure and its `message.status` event commit together.
      const moved = await this.changes.apply(
        workspaceId,
        'message.status',
        (tx) => this.messages.setStatusById(workspaceId, stored.message.id, 'failed', reason, tx),
        (row) => row && statusMoved(row, stored.conversation, 'failed', reason),
      );
      const failed = moved ?? stored.message;
      await this.events.messageUpdated(workspaceId, failed, stored.conversation);
      const details = error instanceof ChannelError ? error.details : {};
      throw new DeliveryFailed(reason, failed, stored.conversation, error instanceof ChannelNotConnectedError, details);
    }
    const marked = await this.messages.markSent(workspaceId, stored.message.id, conversation.channel, externalId, senderJid ?? '');
    // Its `message.status` event in a transaction of its own right after: markSent answers a
    // unique violation (the channel's echo stored first) by taking the echo's row, which a
    // transaction around it could not survive. Only when this very row moved (not the echo's).
    if (marked?.id === stored.message.id && marked.status === 'sent') {
      await this.changes.apply(
        workspaceId,
        'message.status',
        async () => marked,
        (row) => statusMoved(row, stored.conversation, 'sent', null),
      );
    }
    const sent = marked ?? stored.message;
    await this.events.messageUpdated(workspaceId, sent, stored.conversation);
    return { message: sent, conversation: stored.conversation };
  }
}

/** Our own send's first move (from `pending`): the `message.status` change of it. */
function statusMoved(
  message: MessageEntity,
  conversation: ConversationEntity,
  status: 'sent' | 'failed',
  error: string | null,
): InboxChangeOf<'message.status'> {
  return { kind: 'message.status', message, conversation, status, previousStatus: 'pending', error: error ?? '' };
}
