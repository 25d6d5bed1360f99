import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import {
  ChannelInputError,
  ChannelNotConnectedError,
  ChannelUpstreamError,
  type ChannelConversation,
  type ChannelGateway,
  type MessageTarget,
  type NumberLookup,
  type OutgoingMedia,
  type OutgoingMessage,
  type PreparedOutgoing,
  type SendReceipt,
  type TypingState,
} from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { type MediaKind, mediaRuleOf } from '../../inbox/message-kinds.js';
import type { ScanContent, ScanMessageRef, ScanOutgoing, ScanSent } from '../driver/scan-driver.port.js';
import { NumberCheckService } from '../check/number-check.service.js';
import { waMessageId } from '../driver/wa-message-id.js';
import { ScanLookupTimeoutError, ScanNotConnectedError, ScanSessions } from '../session/scan-sessions.port.js';
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
  /** A person's account: WhatsApp bans machine-like bursts, so new messages go through the paced queue. */
  readonly paced = true;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly sessions: ScanSessions,
    private readonly repository: ScanInboundRepository,
    private readonly config: AppConfig,
    private readonly checks: NumberCheckService,
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
    const content = await this.contentOf(outgoing);
    const quoted = outgoing.replyTo ? messageRef(conversation, outgoing.replyTo) : null;
    // WhatsApp's id derives from the inbox's: a send repeated after a crash is the same message.
    const messageId = waMessageId(outgoing.messageId);
    return this.relay(workspaceId, conversation.chatJid, quoted ? { ...content, quoted, messageId } : { ...content, messageId });
  }

  async typing(workspaceId: string, conversation: ChannelConversation, state: TypingState): Promise<void> {
    try {
      await this.sessions.presence(workspaceId, conversation.chatJid, state);
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw new ChannelNotConnectedError();
      throw error;
    }
  }

  /** From the number's cache of checks while fresh, else asked of WhatsApp (`GET /api/chat/check` shares both). */
  async lookup(workspaceId: string, phone: string, options: { countsTowardLimit?: boolean } = {}): Promise<NumberLookup> {
    try {
      const { exists, jid } = await this.checks.lookup(workspaceId, phone, options);
      return { exists, jid };
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw new ChannelNotConnectedError();
      if (error instanceof ScanLookupTimeoutError) throw new ChannelUpstreamError(error.message);
      throw error;
    }
  }

  /** A reaction goes to the chat as a message of its own; the receipt names this number, who reacted. */
  async react(workspaceId: string, conversation: ChannelConversation, target: MessageTarget, emoji: string): Promise<Pick<SendReceipt, 'senderJid'>> {
    const sent = await this.relay(workspaceId, conversation.chatJid, { type: 'reaction', target: messageRef(conversation, target), emoji });
    return { senderJid: sent.senderJid ?? null };
  }

  async revoke(workspaceId: string, conversation: ChannelConversation, target: MessageTarget): Promise<void> {
    await this.relay(workspaceId, conversation.chatJid, { type: 'revoke', target: messageRef(conversation, target) });
  }

  async edit(workspaceId: string, conversation: ChannelConversation, target: MessageTarget, body: string): Promise<void> {
    await this.relay(workspaceId, conversation.chatJid, { type: 'edit', target: messageRef(conversation, target), body });
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
   * Interactive messages are the Cloud API's: refused (400) before anything is stored.
   */
  async prepare(_workspaceId: string, outgoing: PreparedOutgoing): Promise<PreparedOutgoing> {
    if (outgoing.type === 'interactive') throw new ChannelInputError(INTERACTIVE_NOT_HERE);
    if (!('media' in outgoing) || outgoing.media.data) return outgoing;
    return { ...outgoing, media: await this.mediaOf(outgoing.type, outgoing.media) };
  }

  private async relay(workspaceId: string, jid: string, outgoing: ScanOutgoing): Promise<ScanSent> {
    try {
      return await this.sessions.send(workspaceId, jid, outgoing);
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw new ChannelNotConnectedError();
      throw error;
    }
  }

  private async contentOf(outgoing: PreparedOutgoing): Promise<ScanContent> {
    switch (outgoing.type) {
      case 'text':
        return { type: 'text', body: outgoing.body };
      case 'location':
        return { type: 'location', location: outgoing.location };
      case 'contacts':
        return { type: 'contacts', contacts: outgoing.contacts };
      case 'interactive':
        throw new ChannelInputError(INTERACTIVE_NOT_HERE);
      default: {
        const media = await this.mediaOf(outgoing.type, outgoing.media);
        return { type: outgoing.type, caption: outgoing.caption, ...media, ...(outgoing.durationS ? { durationS: outgoing.durationS } : {}) };
      }
    }
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

/** WhatsApp Web has no buttons or lists for a number linked this way. */
const INTERACTIVE_NOT_HERE = 'interactive messages need a Cloud API number';

/** A stored message as WhatsApp keys it in this chat: a group's message by someone else names them (the key's participant). */
const messageRef = (conversation: ChannelConversation, target: MessageTarget): ScanMessageRef => ({
  externalId: target.externalId,
  fromMe: target.fromMe,
  participant: conversation.isGroup && !target.fromMe && target.senderJid ? target.senderJid : null,
  type: target.kind,
  content: target.content,
});
