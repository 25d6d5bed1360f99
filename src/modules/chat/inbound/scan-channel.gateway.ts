import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import {
  ChannelInputError,
  ChannelNotConnectedError,
  type ChannelConversation,
  type ChannelGateway,
  type OutgoingMedia,
  type OutgoingMessage,
  type PreparedOutgoing,
  type SendReceipt,
} from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { type MediaKind, mediaRuleOf } from '../../inbox/message-kinds.js';
import type { ScanOutgoing } from '../driver/scan-driver.port.js';
import { ScanNotConnectedError, ScanSessions } from '../session/scan-sessions.port.js';
import { fetchMedia } from './media-fetch.js';
import { ScanInboundRepository } from './scan-inbound.repository.js';

/**
 * The inbox's `scan` channel: sends and read receipts through `ScanSessions`, which reaches the
 * worker holding the workspace's socket from any process. A socket that is not open is the
 * inbox's 409 `chat is not connected`.
 */
@Injectable()
export class ScanChannelGateway implements ChannelGateway, OnModuleInit, OnModuleDestroy {
  readonly channel = 'scan' as const;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly sessions: ScanSessions,
    private readonly repository: ScanInboundRepository,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  onModuleDestroy(): void {
    this.registry.unregister(this);
  }

  isConnected(workspaceId: string): Promise<boolean> {
    return this.sessions.isConnected(workspaceId);
  }

  async send(workspaceId: string, conversation: ChannelConversation, outgoing: OutgoingMessage): Promise<SendReceipt> {
    const scan: ScanOutgoing =
      outgoing.type === 'text'
        ? { type: 'text', body: outgoing.body }
        : { type: outgoing.type, caption: outgoing.caption, ...(await this.mediaOf(outgoing.type, outgoing.media)) };
    try {
      return await this.sessions.send(workspaceId, conversation.chatJid, scan);
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw new ChannelNotConnectedError();
      throw error;
    }
  }

  async markRead(workspaceId: string, conversation: ChannelConversation, messageIds: string[]): Promise<void> {
    if (messageIds.length === 0) return;
    // In groups a receipt names who wrote the message.
    const senders = conversation.isGroup ? await this.repository.senders(workspaceId, conversation.id, messageIds) : new Map<string, string>();
    const keys = messageIds.map((externalId) => ({
      chatJid: conversation.chatJid,
      externalId,
      participant: conversation.isGroup ? (senders.get(externalId) ?? null) : null,
    }));
    try {
      await this.sessions.markRead(workspaceId, keys);
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw new ChannelNotConnectedError();
      throw error;
    }
  }

  /**
   * A `media.url` is downloaded here, before the inbox stores the message: a url we refuse is a
   * 400 and a host that fails a 502, with nothing stored (WhatsApp takes bytes, not addresses).
   */
  async prepare(_workspaceId: string, outgoing: PreparedOutgoing): Promise<PreparedOutgoing> {
    if (outgoing.type === 'text' || outgoing.media.data) return outgoing;
    return { ...outgoing, media: await this.mediaOf(outgoing.type, outgoing.media) };
  }

  /** Bytes to send: uploaded ones as they are, an address fetched (capped, public addresses only). */
  private async mediaOf(type: MediaKind, media: OutgoingMedia): Promise<{ data: Buffer; mimeType: string; fileName: string }> {
    if (media.data) return { data: media.data, mimeType: media.mimeType, fileName: media.fileName };
    if (!media.url) throw new ChannelInputError('media needs exactly one of url and data_base64');
    const rule = mediaRuleOf(type);
    const fetched = await fetchMedia(media.url, rule.sendFetchLimit, this.config.allowPrivateMediaUrls);
    const mimeType = media.mimeType || fetched.contentType || rule.defaultMimeType;
    if (rule.mimeFamily && !mimeType.startsWith(rule.mimeFamily.prefix)) throw new ChannelInputError(`media url did not answer ${rule.noun}`);
    return { data: fetched.data, mimeType, fileName: media.fileName };
  }
}
