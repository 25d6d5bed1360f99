import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  ChannelBusyError,
  ChannelError,
  ChannelInputError,
  ChannelNotConnectedError,
  type ChannelConversation,
  type ChannelGateway,
  type MessageTarget,
  type OutgoingMedia,
  type OutgoingMessage,
  type OutgoingTemplate,
  type PreparedOutgoing,
  type SendReceipt,
} from '../../channels/channel-gateway.port.js';
import { isMediaKind } from '../../inbox/message-kinds.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { GraphApi, type GraphSendResult } from '../graph/graph-api.js';
import { GraphApiError, GraphUnreachableError, INVALID_TOKEN_CODE } from '../graph/graph-error.js';
import { type MetaCredentials, MetaSettingsService } from '../settings/meta-settings.service.js';
import { cloudMediaRefusal } from './meta-media-limits.js';
import { busyBackoff } from './meta-rate-limits.js';
import { contextOf, type MediaRef, messagePart, reactionPart, recipientOf, templatePart } from './meta-outgoing.mapper.js';

/**
 * The inbox's `meta` channel: sends of every kind, reactions, provider templates (with header and
 * button parameters) and read receipts through the Graph API with the workspace's token. A file
 * the provider would refuse (type, size: meta-media-limits.ts) is refused in `prepare`, before the
 * inbox stores anything. A refusal is a `ChannelError` with the provider's text and its
 * `provider_code`, `provider_subcode`, `provider_title`; a refused token (190) also disconnects
 * the workspace until its settings are saved again.
 *
 * The Cloud API can neither delete a message for everyone nor edit one: `revoke` and `edit` are
 * left out, so the inbox refuses those (400). The 24-hour customer-service window (free-form
 * messages, interactive ones included, only within a day of the person's last message) is the
 * provider's to enforce: its refusal (131047) comes back as any other.
 *
 * A message the provider asks to send more slowly (pair rate, throughput, spam rate:
 * meta-rate-limits.ts) is not refused: `send` and `sendTemplate` throw `ChannelBusyError` with the
 * same text and fields, so the inbox keeps it pending and retries it. Reactions and read receipts
 * are not queued, so their rate limits stay refusals.
 */
@Injectable()
export class MetaChannelGateway implements ChannelGateway, OnModuleInit, OnModuleDestroy {
  readonly channel = 'meta' as const;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly settings: MetaSettingsService,
    private readonly graph: GraphApi,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  onModuleDestroy(): void {
    this.registry.unregister(this);
  }

  async isConnected(workspaceId: string): Promise<boolean> {
    return (await this.settings.get(workspaceId)).connected;
  }

  /** A file the Cloud API would refuse for its kind (type, size) is a 400 before anything is stored. */
  prepare(_workspaceId: string, outgoing: PreparedOutgoing): Promise<PreparedOutgoing> {
    if (isMediaKind(outgoing.type) && 'media' in outgoing) {
      const refusal = cloudMediaRefusal(outgoing.type, outgoing.media);
      if (refusal) return Promise.reject(new ChannelInputError(refusal));
    }
    return Promise.resolve(outgoing);
  }

  async send(workspaceId: string, conversation: ChannelConversation, outgoing: OutgoingMessage): Promise<SendReceipt> {
    const credentials = await this.credentials(workspaceId);
    const recipient = recipientOf(conversation);
    const answer = await this.call(
      workspaceId,
      async () => {
        const media = 'media' in outgoing ? await this.mediaRef(credentials, outgoing.media) : undefined;
        return this.graph.send(credentials.token, credentials.phoneNumberId, { ...recipient, ...messagePart(outgoing, media) });
      },
      { busy: true },
    );
    return receiptOf(answer, credentials);
  }

  /**
   * A provider template by name and language, with its parameters (the inbox stores
   * `template.body`); a header file is uploaded or linked like any file, and a reply names the
   * message it quotes in `context` as any other send.
   */
  async sendTemplate(workspaceId: string, conversation: ChannelConversation, template: OutgoingTemplate): Promise<SendReceipt> {
    const credentials = await this.credentials(workspaceId);
    const recipient = recipientOf(conversation);
    const header = template.header;
    const answer = await this.call(
      workspaceId,
      async () => {
        const media = header && header.type !== 'text' ? await this.mediaRef(credentials, header.media) : undefined;
        const context = template.replyTo ? contextOf(template.replyTo) : {};
        return this.graph.send(credentials.token, credentials.phoneNumberId, { ...recipient, ...templatePart(template, media), ...context });
      },
      { busy: true },
    );
    return receiptOf(answer, credentials);
  }

  /** A reaction, sent as a message of its own (the provider answers it an id, which nothing needs). */
  async react(workspaceId: string, conversation: ChannelConversation, target: MessageTarget, emoji: string): Promise<void> {
    const credentials = await this.credentials(workspaceId);
    const recipient = recipientOf(conversation);
    await this.call(workspaceId, () => this.graph.send(credentials.token, credentials.phoneNumberId, { ...recipient, ...reactionPart(target, emoji) }));
  }

  /** The provider marks everything up to a message read: the newest is enough. */
  async markRead(workspaceId: string, _conversation: ChannelConversation, messageIds: string[]): Promise<void> {
    const newest = messageIds[0];
    if (!newest) return;
    const credentials = await this.credentials(workspaceId);
    await this.call(workspaceId, () => this.graph.markRead(credentials.token, credentials.phoneNumberId, newest));
  }

  private async credentials(workspaceId: string): Promise<MetaCredentials> {
    const credentials = await this.settings.credentials(workspaceId);
    if (!credentials?.connected) throw new ChannelNotConnectedError();
    return credentials;
  }

  /** An address is sent as a `link` the provider fetches; uploaded bytes go to the media endpoint first. */
  private async mediaRef(credentials: MetaCredentials, media: OutgoingMedia): Promise<MediaRef> {
    if (media.url) return { link: media.url };
    if (!media.data) throw new ChannelError('media needs exactly one of url and data_base64');
    return { id: await this.graph.uploadMedia(credentials.token, credentials.phoneNumberId, media.data, media.mimeType, media.fileName) };
  }

  /** `busy`: a rate-limit refusal is a `ChannelBusyError` (the inbox retries it) rather than a `ChannelError`. */
  private async call<T>(workspaceId: string, work: () => Promise<T>, options: { busy?: boolean } = {}): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof GraphApiError) {
        if (error.code === INVALID_TOKEN_CODE) await this.settings.tokenRefused(workspaceId, error.message);
        const busy = options.busy ? busyBackoff(error.code, error.retryAfterMs) : null;
        if (busy) throw new ChannelBusyError(error.message, busy.scope, busy.retryAfterMs, { ...error.providerFields });
        throw new ChannelError(error.message, { ...error.providerFields });
      }
      if (error instanceof GraphUnreachableError) throw new ChannelError(error.message);
      throw error;
    }
  }
}

/** The provider's answer as a receipt; the sender is the business number, as a jid like the scan channel's ('' when unknown). */
function receiptOf(answer: GraphSendResult, credentials: MetaCredentials): SendReceipt {
  const externalId = answer.messages?.[0]?.id;
  if (typeof externalId !== 'string' || !externalId) throw new Error('the provider accepted the message without answering its id');
  const digits = credentials.displayPhoneNumber.replace(/\D/g, '');
  return { externalId, senderJid: digits ? `${digits}@s.whatsapp.net` : '' };
}
