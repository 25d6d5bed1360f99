import { Column, CreateDateColumn, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { MessageDetails, MessageReaction } from '../message-details.js';
import type { MessageKind } from '../message-kinds.js';
import { ConversationEntity } from './conversation.entity.js';

/** The contract's `message_type` values (message-kinds.ts: each kind's coarse type). */
export { CONTRACT_MESSAGE_TYPES as MESSAGE_TYPES, type ContractMessageType as MessageType } from '../message-kinds.js';
export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
export const MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * One WhatsApp message. `external_id` is the channel's message id: unique per workspace and
 * channel, which is what makes ingest idempotent. It is null only while an outbound message waits
 * for the channel to assign one.
 */
@Entity({ name: 'messages' })
@Index('messages_workspace_channel_external_uq', ['workspaceId', 'channel', 'externalId'], { unique: true })
// (conversation_id, timestamp DESC, seq DESC) for keyset pagination; created in the migration
// because TypeORM cannot express a descending index column.
@Index('messages_conversation_timestamp_idx', { synchronize: false })
// GIN over to_tsvector('simple', content || ' ' || file_name) for GET /api/search; created in the
// migration (1764011720000) because TypeORM cannot express an expression index.
@Index('messages_search_idx', { synchronize: false })
// (workspace_id, timestamp DESC): a common word's newest matches, read newest first (search).
@Index('messages_workspace_timestamp_idx', { synchronize: false })
@Index('messages_conversation_seq_uq', ['conversationId', 'conversationSeq'], { unique: true })
export class MessageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  // Indexed through the unique index above; the workspace cascade reaches messages through
  // their conversation, which keeps the hot insert path to one foreign-key check.
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: Relation<ConversationEntity>;

  @Column({ type: 'text' })
  channel: ChannelName;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId: string | null;

  @Column({ type: 'text' })
  direction: MessageDirection;

  @Column({ name: 'sender_jid', type: 'text', default: '' })
  senderJid: string;

  @Column({ name: 'sender_name', type: 'text', default: '' })
  senderName: string;

  /** The message's kind (message-kinds.ts); the API shows its coarse `message_type`. */
  @Column({ name: 'message_type', type: 'text', default: 'text' })
  messageType: MessageKind;

  @Column({ type: 'text', default: '' })
  content: string;

  @Column({ name: 'media_url', type: 'text', default: '' })
  mediaUrl: string;

  @Column({ name: 'mime_type', type: 'text', default: '' })
  mimeType: string;

  @Column({ name: 'file_name', type: 'text', default: '' })
  fileName: string;

  @Column({ name: 'file_size', type: 'integer', default: 0 })
  fileSize: number;

  /** Playing time of audio, voice notes and video, in whole seconds; 0 for other kinds. */
  @Column({ name: 'duration_s', type: 'integer', default: 0 })
  durationS: number;

  /** The channel id of the message this one quotes (a reply), or ''. */
  @Column({ name: 'quoted_external_id', type: 'text', default: '' })
  quotedExternalId: string;

  /** Our id of the quoted message, when the inbox held it as this one was stored. */
  @Column({ name: 'quoted_id', type: 'uuid', nullable: true })
  quotedId: string | null;

  /** Structured parts (location, contact cards, poll) and mentions (message-details.ts); null when none. */
  @Column({ type: 'jsonb', nullable: true })
  details: MessageDetails | null;

  /** One entry per person who reacted (their latest emoji). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  reactions: MessageReaction[];

  /** When its sender last edited it; null if never. */
  @Column({ name: 'edited_at', type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  /** When its sender deleted it for everyone (its content is kept for the workspace); null if not. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @Column({ type: 'text' })
  status: MessageStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz' })
  timestamp: Date;

  /**
   * Insertion order (a bigserial; bigint comes back as a string): the tie-break of messages with
   * the same timestamp, in the list and in its cursor.
   */
  @Column({ type: 'bigint' })
  @Generated('increment')
  seq: string;

  /**
   * The message's place in its conversation (the API's and the events' `seq`): 1, 2, 3, … in the
   * order the service stored them, gap-free (bigint: a string). Null only before it is assigned.
   */
  @Column({ name: 'conversation_seq', type: 'bigint', nullable: true })
  conversationSeq: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
