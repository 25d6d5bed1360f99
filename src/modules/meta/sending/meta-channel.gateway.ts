import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  ChannelError,
  ChannelNotConnectedError,
  type ChannelConversation,
  type ChannelGateway,
  type OutgoingMessage,
  type OutgoingTemplate,
  type SendReceipt,
} from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { GraphApi, type GraphSendResult } from '../graph/graph-api.js';
import { GraphApiError, GraphUnreachableError, INVALID_TOKEN_CODE } from '../graph/graph-error.js';
import { type MetaCredentials, MetaSettingsService } from '../settings/meta-settings.service.js';
import { type MediaRef, messagePart, recipientOf, templatePart } from './meta-outgoing.mapper.js';

/**
 * The inbox's `meta` channel: sends, provider templates and read receipts through the Graph API
 * with the workspace's token. A refusal is a `ChannelError` with the provider's text and its
 * `provider_code`, `provider_subcode`, `provider_title`; a refused token (190) also disconnects
 * the workspace until its settings are saved again.
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

  async send(workspaceId: string, conversation: ChannelConversation, outgoing: OutgoingMessage): Promise<SendReceipt> {
    const credentials = await this.credentials(workspaceId);
    const recipient = recipientOf(conversation);
    const answer = await this.call(workspaceId, async () => {
      const media = outgoing.type === 'text' ? undefined : await this.mediaRef(credentials, outgoing.media);
      return this.graph.send(credentials.token, credentials.phoneNumberId, { ...recipient, ...messagePart(outgoing, media) });
    });
    return receiptOf(answer, credentials);
  }

  /** A provider template by name and language, with its body parameters (the inbox stores `template.body`). */
  async sendTemplate(workspaceId: string, conversation: ChannelConversation, template: OutgoingTemplate): Promise<SendReceipt> {
    const credentials = await this.credentials(workspaceId);
    const recipient = recipientOf(conversation);
    const answer = await this.call(workspaceId, () =>
      this.graph.send(credentials.token, credentials.phoneNumberId, { ...recipient, ...templatePart(template) }),
    );
    return receiptOf(answer, credentials);
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
  private async mediaRef(credentials: MetaCredentials, media: { url?: string; data?: Buffer; mimeType: string; fileName: string }): Promise<MediaRef> {
    if (media.url) return { link: media.url };
    if (!media.data) throw new ChannelError('media needs exactly one of url and data_base64');
    return { id: await this.graph.uploadMedia(credentials.token, credentials.phoneNumberId, media.data, media.mimeType, media.fileName) };
  }

  private async call<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof GraphApiError) {
        if (error.code === INVALID_TOKEN_CODE) await this.settings.tokenRefused(workspaceId, error.message);
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
