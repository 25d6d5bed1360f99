import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { mediaUrlRefusal } from '../../../infra/net/media-url.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import type { ChannelGateway } from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { SendCapsRepository } from '../outbound/send-caps.repository.js';
import { SendCapsService } from '../outbound/send-caps.service.js';
import { SendSettingsService } from '../outbound/send-settings.service.js';
import type { StartConversationDto } from '../dto/conversation.dto.js';
import type { StartedConversationResponse } from '../dto/inbox-responses.dto.js';
import { InboxEvents } from '../inbox-events.service.js';
import { toConversationResponse } from '../inbox.mapper.js';
import type { ChatIdentity } from '../ingest/inbound-message.js';
import { IngestRepository } from '../ingest/ingest.repository.js';
import { RetryIngest, withRetry } from '../ingest/retry.js';
import { inTransaction } from '../../../infra/database/sql-transaction.js';
import { normalizePhone, personJid } from '../jid.js';
import { buildDraft, messageText } from '../messages/outgoing-draft.js';
import { DeliveryFailed, deliveredResponse, NOT_CONNECTED, SendMessageService, sourceOf } from '../messages/send-message.service.js';
import { ConversationRepository } from './conversation.repository.js';
import { viewerOf } from './conversation-viewer.js';

export const NOT_ON_WHATSAPP = 'phone number is not on WhatsApp';

/**
 * POST /api/conversations: find or create the chat with a phone number and send the first
 * message (a text, a file, a place, contact cards: drafted as on
 * `POST /api/conversations/:id/messages`), or (no `body`/`content`/`type`) only find or create
 * it: a template or a text follows later.
 */
@Injectable()
export class StartConversationService {
  private readonly logger = new Logger('StartConversation');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ingest: IngestRepository,
    private readonly conversations: ConversationRepository,
    private readonly channels: ChannelRegistry,
    private readonly sender: SendMessageService,
    private readonly events: InboxEvents,
    private readonly config: AppConfig,
    private readonly caps: SendCapsRepository,
    private readonly limits: SendCapsService,
    private readonly settings: SendSettingsService,
  ) {}

  /**
   * The chat's jid, after the checks a paced number (scan) makes before a chat the contact never
   * wrote in is stored: room under the new-chats cap, and a number that is on WhatsApp (the
   * channel's check, from its cache when fresh), since writing to numbers that are not is what
   * gets a number reported. WhatsApp's answer names the chat (a Brazilian number without its
   * ninth digit, say). A check that cannot be made (the socket did not answer) lets the send go on.
   */
  private async checkedJid(workspaceId: string, gateway: ChannelGateway, phone: string): Promise<string> {
    const jid = personJid(phone);
    if (!gateway.paced && !gateway.lookup) return jid;
    const existing = await this.conversations.findByChat(workspaceId, gateway.channel, jid);
    if (existing && (await this.caps.hasInbound(workspaceId, existing.id))) return jid;
    if (gateway.paced) await this.limits.assertRoomForNewChat(workspaceId, existing?.id ?? null, await this.settings.effective(workspaceId));
    if (!gateway.lookup) return jid;
    let found;
    try {
      found = await gateway.lookup(workspaceId, phone, { countsTowardLimit: false });
    } catch (error) {
      this.logger.warn({ err: error, workspaceId }, 'number check failed; starting the conversation without it');
      return jid;
    }
    if (!found.exists) throw ApiError.badRequest(NOT_ON_WHATSAPP);
    return existing ? jid : (found.jid ?? jid);
  }

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
    const chatJid = await this.checkedJid(actor.workspaceId, gateway, phone);

    // The same upsert as an inbound message: an existing chat or contact with this number is reused.
    const chat: ChatIdentity = {
      channel: gateway.channel,
      chatJid,
      isGroup: false,
      chatName: '',
      // The number as WhatsApp knows it (its check may have answered another spelling).
      chatPhone: chatJid.split('@')[0]!,
      contact: { phone: chatJid.split('@')[0]!, lid: null, name: '' },
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
      return { conversation: toConversationResponse(sent.conversation), message: deliveredResponse(sent) };
    } catch (error) {
      if (error instanceof DeliveryFailed) {
        throw new ApiError(502, error.message, { ...error.details, conversation: toConversationResponse(error.conversation) });
      }
      throw error;
    }
  }
}
