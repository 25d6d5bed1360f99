import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { mediaUrlRefusal } from '../../../infra/net/media-url.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import {
  ChannelBusyError,
  ChannelError,
  ChannelInputError,
  ChannelNotConnectedError,
  ChannelUpstreamError,
  type ChannelConversation,
  type ChannelGateway,
  type SendReceipt,
} from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { OutboundSource } from '../changes/inbox-change.js';
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
import { SendOutcomeService } from './send-outcome.service.js';
import { OutboundQueueService } from '../outbound/outbound-queue.service.js';
import type { QueuedSend } from '../outbound/queued-send.codec.js';
import { SendCapsService } from '../outbound/send-caps.service.js';
import { SendSettingsService } from '../outbound/send-settings.service.js';
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
    private readonly outcome: SendOutcomeService,
    private readonly settings: SendSettingsService,
    private readonly caps: SendCapsService,
    private readonly queue: OutboundQueueService,
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
      return deliveredResponse(await this.deliver(actor.workspaceId, conversation, gateway, ready, sourceOf(actor), actor.userId));
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
   * Stores the message as pending (so it shows at once and survives a crash mid-send) and sends
   * it, or, for a paced number (scan) and behind a chat's queued sends, queues it in the same
   * transaction: the number's lane sends it at its turn (docs/sending.md). A paced number's caps
   * are checked in that transaction first (429). A provider's "slow down" keeps the message
   * pending and queued for a retry. Throws `DeliveryFailed` after recording a failure.
   */
  async deliver(
    workspaceId: string,
    conversation: ConversationEntity,
    gateway: ChannelGateway,
    draft: OutgoingDraft,
    source: OutboundSource,
    /** The Console member sending (null for keys and automations): the reports' first responses credit them. */
    senderId: string | null = null,
  ): Promise<Delivered> {
    const settings = gateway.paced ? await this.settings.effective(workspaceId) : null;
    const queued = settings !== null || (await this.queue.hasQueued(workspaceId, conversation.id));
    let position: number | null = null;
    const stored = await this.changes.applyAtomic(
      workspaceId,
      'message.outbound',
      async (tx) => {
        if (settings) await this.caps.check(workspaceId, conversation, settings, tx);
        const row = await this.messages.insertOutbound(workspaceId, conversation.id, draft.row, tx);
        if (queued) {
          const typing = settings !== null && (settings.typing === 'all' || (settings.typing === 'automations' && source === 'automation'));
          position = await this.queue.enqueue(workspaceId, queuedRow(gateway, row.message, draft, typing), tx);
        }
        return row;
      },
      (row) => ({ kind: 'message.outbound', message: row.message, conversation: row.conversation, source, senderId }),
    );
    await this.events.messageCreated(workspaceId, stored.message, stored.conversation);
    if (position !== null) return this.queuedAnswer(workspaceId, stored, position);
    let receipt;
    try {
      receipt = await dispatch(gateway, workspaceId, toChannelConversation(stored.conversation), queuedSendOf(gateway, draft, stored.message.id));
    } catch (error) {
      if (error instanceof ChannelBusyError) return this.queueForRetry(workspaceId, stored, gateway, draft, error);
      return this.failDelivery(workspaceId, stored, error);
    }
    const sent = await this.outcome.sent(workspaceId, stored.message, stored.conversation, conversation.channel, receipt);
    return { message: sent, conversation: stored.conversation, queuePosition: null };
  }

  /** The provider asked to slow down: no failure. The message waits in the queue for its retry. */
  private async queueForRetry(workspaceId: string, stored: Stored, gateway: ChannelGateway, draft: OutgoingDraft, busy: ChannelBusyError): Promise<Delivered> {
    let position: number;
    try {
      position = await this.queue.enqueue(workspaceId, { ...queuedRow(gateway, stored.message, draft, false), delayMs: busy.retryAfterMs });
    } catch (error) {
      // Not queued: the message must not stay pending with nothing to send it.
      return this.failDelivery(workspaceId, stored, busy, error);
    }
    return this.queuedAnswer(workspaceId, stored, position);
  }

  /** Records the failure and throws `DeliveryFailed` (the request's 500, 409 or 502). */
  private async failDelivery(workspaceId: string, stored: Stored, error: unknown, cause?: unknown): Promise<never> {
    const reason = error instanceof ChannelError ? error.message : 'the channel failed to send the message';
    if (!(error instanceof ChannelError) || cause) this.logger.error({ err: cause ?? error, workspaceId, messageId: stored.message.id }, 'send failed');
    const failed = await this.outcome.failed(workspaceId, stored.message, stored.conversation, reason);
    const details = error instanceof ChannelError ? error.details : {};
    throw new DeliveryFailed(reason, failed, stored.conversation, error instanceof ChannelNotConnectedError, details);
  }

  private async queuedAnswer(workspaceId: string, stored: Stored, position: number): Promise<Delivered> {
    await this.queue.kick(workspaceId);
    return { ...stored, queuePosition: position };
  }
}

type Stored = { message: MessageEntity; conversation: ConversationEntity };

/** A stored send: the row, its conversation, and its place in the number's queue (null: it went out at once). */
export interface Delivered {
  message: MessageEntity;
  conversation: ConversationEntity;
  queuePosition: number | null;
}

/** The API's answer for a send: the message, and its place in the queue while it waits. */
export const deliveredResponse = (delivered: Delivered): MessageResponse =>
  delivered.queuePosition === null
    ? toMessageResponse(delivered.message)
    : { ...toMessageResponse(delivered.message), queue_position: delivered.queuePosition };

/** What the channel gets for a stored draft: a provider template by name where the channel has them, else the message. */
export const queuedSendOf = (gateway: ChannelGateway, draft: OutgoingDraft, messageId: string): QueuedSend =>
  draft.template && gateway.sendTemplate
    ? { kind: 'template', template: { ...draft.template, messageId } }
    : { kind: 'message', outgoing: { ...draft.outgoing, messageId } };

const queuedRow = (gateway: ChannelGateway, message: MessageEntity, draft: OutgoingDraft, typing: boolean) => ({
  messageId: message.id,
  conversationId: message.conversationId,
  channel: message.channel,
  send: queuedSendOf(gateway, draft, message.id),
  typing,
});

/** Hands a send to its channel. */
export function dispatch(gateway: ChannelGateway, workspaceId: string, target: ChannelConversation, send: QueuedSend): Promise<SendReceipt> {
  if (send.kind === 'template' && gateway.sendTemplate) return gateway.sendTemplate(workspaceId, target, send.template);
  if (send.kind === 'template') throw new Error('a provider template reached a channel without templates');
  return gateway.send(workspaceId, target, send.outgoing);
}
