import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ConversationEntity } from '../../src/modules/inbox/entities/conversation.entity.js';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxIngestService, type IngestResult } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** A random phone number in digits (never a real one: 999 prefix). */
export const randomPhone = (): string =>
  `999${Math.floor(Math.random() * 1e9)
    .toString()
    .padStart(9, '0')}`;

/** A random WhatsApp LID user part (15 digits, like real ones). */
export const randomLid = (): string =>
  `1${Math.floor(Math.random() * 1e14)
    .toString()
    .padStart(14, '0')}`;

/** A unique channel message id. */
export const messageId = (): string => `MSG${hex(8).toUpperCase()}`;

/**
 * Inbox data created through the real ingest pipeline, so tests see exactly what a channel
 * would produce.
 */
export class InboxFactories {
  constructor(private readonly app: INestApplication) {}

  get ingest(): InboxIngestService {
    return this.app.get(InboxIngestService);
  }

  /** `SELECT count(*) FROM <from>`, e.g. `count('messages WHERE workspace_id = $1', [id])`. */
  async count(from: string, params: unknown[]): Promise<number> {
    const rows: { n: number }[] = await this.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ${from}`, params);
    return rows[0]!.n;
  }

  /** An inbound text message in a one-to-one chat with `phone` (random by default). */
  inbound(overrides: Partial<InboundMessage> & { phone?: string } = {}): InboundMessage {
    const { phone = randomPhone(), ...rest } = overrides;
    return {
      channel: 'scan',
      externalId: messageId(),
      chatJid: `${phone}@s.whatsapp.net`,
      senderJid: `${phone}@s.whatsapp.net`,
      senderName: 'Ada',
      contact: { phone },
      content: `hello ${hex(3)}`,
      timestamp: new Date(),
      ...rest,
    };
  }

  /** An inbound message in a group chat. */
  groupInbound(groupId: string, overrides: Partial<InboundMessage> = {}): InboundMessage {
    const sender = randomPhone();
    return {
      channel: 'scan',
      externalId: messageId(),
      chatJid: `${groupId}@g.us`,
      isGroup: true,
      chatName: 'Team chat',
      senderJid: `${sender}@s.whatsapp.net`,
      senderName: 'Bob',
      content: `group hello ${hex(3)}`,
      timestamp: new Date(),
      ...overrides,
    };
  }

  message(workspaceId: string, overrides: Partial<InboundMessage> & { phone?: string } = {}): Promise<IngestResult> {
    return this.ingest.ingest(workspaceId, this.inbound(overrides));
  }

  /** A one-to-one conversation with one inbound message. */
  async conversation(workspaceId: string, overrides: Partial<InboundMessage> & { phone?: string } = {}): Promise<ConversationEntity> {
    return (await this.message(workspaceId, overrides)).conversation;
  }
}
