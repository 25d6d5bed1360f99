import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { mediaUrlRefusal } from '../../../infra/net/media-url.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import type { StartConversationDto } from '../dto/conversation.dto.js';
import type { StartedConversationResponse } from '../dto/inbox-responses.dto.js';
import { InboxEvents } from '../inbox-events.service.js';
import { toConversationResponse, toMessageResponse } from '../inbox.mapper.js';
import type { ChatIdentity } from '../ingest/inbound-message.js';
import { IngestRepository } from '../ingest/ingest.repository.js';
import { RetryIngest, withRetry } from '../ingest/retry.js';
import { inTransaction } from '../../../infra/database/sql-transaction.js';
import { normalizePhone, personJid } from '../jid.js';
import { buildDraft, messageText } from '../messages/outgoing-draft.js';
import { DeliveryFailed, NOT_CONNECTED, SendMessageService, sourceOf } from '../messages/send-message.service.js';
import { ConversationRepository } from './conversation.repository.js';
import { viewerOf } from './conversation-viewer.js';

/**
 * POST /api/conversations: find or create the chat with a phone number and send the first
 * message (a text, a file, a place, contact cards: drafted as on
 * `POST /api/conversations/:id/messages`), or (no `body`/`content`/`type`) only find or create
 * it: a template or a text follows later.
 */
@Injectable()
export class StartConversationService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ingest: IngestRepository,
    private readonly conversations: ConversationRepository,
    private readonly channels: ChannelRegistry,
    private readonly sender: SendMessageService,
    private readonly events: InboxEvents,
    private readonly config: AppConfig,
  ) {}

  async start(actor: WorkspaceActor, dto: StartConversationDto): Promise<StartedConversationResponse> {
    const phone = normalizePhone(dto.phone);
    if (!phone) throw ApiError.badRequest('invalid phone number');
    // Given but blank is still the 400 it always was; only leaving the text and the type out means "no message".
    const draft = messageText(dto) === undefined && dto.type === undefined ? null : buildDraft(dto);
    const mediaUrl = draft && 'media' in draft.outgoing ? draft.outgoing.media.url : undefined;
    const refusal = mediaUrl ? mediaUrlRefusal(mediaUrl, this.config.allowPrivateMediaUrls) : null;
    if (refusal) throw ApiError.badRequest(refusal);
    const gateway = await this.channels.firstConnected(actor.workspaceId);
    if (!gateway) throw ApiError.conflict(NOT_CONNECTED);
    // The channel's work on the message (a media url fetched and checked) before anything is stored.
    const ready = draft && (await this.sender.prepare(actor.workspaceId, gateway, draft));

    // The same upsert as an inbound message: an existing chat or contact with this number is reused.
    const chat: ChatIdentity = {
      channel: gateway.channel,
      chatJid: personJid(phone),
      isGroup: false,
      chatName: '',
      chatPhone: phone,
      contact: { phone, lid: null, name: '' },
    };
    let inserted = false;
    await withRetry(() =>
      inTransaction(this.db, async (tx) => {
        const upserted = await this.ingest.upsertChat(actor.workspaceId, chat, draft?.row.timestamp ?? new Date(), tx);
        if (!upserted) throw new RetryIngest();
        inserted = upserted.inserted;
      }),
    );
    const conversation = await this.conversations.findByChat(actor.workspaceId, chat.channel, chat.chatJid);
    const viewer = viewerOf(actor);
    // An agent may not write into a chat assigned to someone else: it is missing for them.
    if (!conversation || (viewer && conversation.assigneeId && conversation.assigneeId !== viewer)) {
      throw ApiError.notFound('conversation not found');
    }
    if (!ready) {
      // Without a message nothing else announces a new conversation to open Consoles.
      if (inserted) await this.events.conversationUpdated(actor.workspaceId, conversation);
      return { conversation: toConversationResponse(conversation), message: null };
    }
    try {
      const sent = await this.sender.deliver(actor.workspaceId, conversation, gateway, ready, sourceOf(actor), actor.userId);
      return { conversation: toConversationResponse(sent.conversation), message: toMessageResponse(sent.message) };
    } catch (error) {
      if (error instanceof DeliveryFailed) {
        throw new ApiError(502, error.message, { ...error.details, conversation: toConversationResponse(error.conversation) });
      }
      throw error;
    }
  }
}
