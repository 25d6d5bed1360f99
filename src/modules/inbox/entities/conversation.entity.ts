import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../../auth/entities/user.entity.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';
import { ContactEntity } from './contact.entity.js';

/**
 * `pending`: waiting on the customer; `snoozed`: out of sight until `snoozed_until` or the
 * customer's next message (issue 39). Any inbound message makes a conversation `open` again.
 */
export const CONVERSATION_STATUSES = ['open', 'pending', 'snoozed', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/**
 * SQL: the hour (in UTC, whatever the session's time zone) a timestamptz expression falls in: the
 * list's index key. Spelt as Postgres prints it back without its casts, which is how TypeORM
 * compares the column's default (no drift).
 */
export const hourOf = (expression: string): string => `date_trunc('hour', ${expression}, 'UTC')`;
const LAST_MESSAGE_HOUR_DEFAULT = hourOf('now()');

/** One chat (a person or a group) on one channel of a workspace. */
@Entity({ name: 'conversations' })
@Check('conversations_last_message_hour_ck', `"last_message_hour" = ${hourOf('"last_message_at"')}`)
@Index('conversations_workspace_channel_chat_uq', ['workspaceId', 'channel', 'chatJid'], { unique: true })
// (workspace_id, last_message_hour DESC) for the list; created in the migration because TypeORM
// cannot express a descending index column.
@Index('conversations_workspace_last_message_idx', { synchronize: false })
export class ConversationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  channel: ChannelName;

  @Column({ name: 'chat_jid', type: 'text' })
  chatJid: string;

  // Partial (non-NULL only): fewer index entries per conversation update (migration 1764009100000).
  @Index('conversations_contact_id_idx', { where: '"contact_id" IS NOT NULL' })
  @Column({ name: 'contact_id', type: 'uuid', nullable: true })
  contactId: string | null;

  @ManyToOne(() => ContactEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'contact_id' })
  contact?: Relation<ContactEntity>;

  @Column({ name: 'is_group', type: 'boolean', default: false })
  isGroup: boolean;

  @Column({ name: 'chat_name', type: 'text', default: '' })
  chatName: string;

  /** Digits of the other party's number for a one-to-one chat, when known; '' otherwise. */
  @Column({ name: 'chat_phone', type: 'text', default: '' })
  chatPhone: string;

  @Index('conversations_assignee_id_idx', { where: '"assignee_id" IS NOT NULL' })
  @Column({ name: 'assignee_id', type: 'uuid', nullable: true })
  assigneeId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'assignee_id' })
  assignee?: Relation<UserEntity>;

  @Column({ type: 'text', default: 'open' })
  status: ConversationStatus;

  /**
   * When a `snoozed` conversation opens again by itself; null for every other status. The partial
   * index holds snoozed rows only (the wake-up sweep's), so other rows' updates never touch it.
   */
  @Index('conversations_snoozed_until_idx', { where: `"status" = 'snoozed'` })
  @Column({ name: 'snoozed_until', type: 'timestamptz', nullable: true })
  snoozedUntil: Date | null;

  /**
   * The workspace labels on it (ids of `labels` rows), kept on the row so every read of a
   * conversation has them without a join; a GIN index serves `?label=`. No message touches the
   * column, so the index leaves the per-message update HOT.
   */
  @Index('conversations_label_ids_idx', { synchronize: false })
  @Column({ name: 'label_ids', type: 'uuid', array: true, default: () => "'{}'" })
  labelIds: string[];

  @Column({ name: 'unread_count', type: 'integer', default: 0 })
  unreadCount: number;

  /** Never null: a conversation without messages sorts by its creation time. */
  @Column({ name: 'last_message_at', type: 'timestamptz', default: () => 'now()' })
  lastMessageAt: Date;

  /** The `seq` of the message that set last_message_at: the list's tie-break (0: no message yet). */
  @Column({ name: 'last_message_seq', type: 'bigint', default: 0 })
  lastMessageSeq: string;

  /**
   * The highest `conversation_seq` given to one of its messages (0: none yet). Writers take the
   * next one under this row's lock, in the inserting transaction: the numbers stay gap-free.
   */
  @Column({ name: 'last_seq', type: 'bigint', default: 0 })
  lastSeq: string;

  /**
   * The hour `last_message_at` falls in (a CHECK keeps them equal): the list's index key, which
   * messages within the same hour leave alone, so their updates stay HOT (migration 1764010100000).
   * Internal: no projection selects it.
   */
  @Column({ name: 'last_message_hour', type: 'timestamptz', default: () => LAST_MESSAGE_HOUR_DEFAULT })
  lastMessageHour: Date;

  @Column({ name: 'last_message_preview', type: 'text', default: '' })
  lastMessagePreview: string;

  /**
   * Reports' bookkeeping of the current opening (docs/inbox.md, "Reports"), kept by triggers and
   * the send's first-response hook: when it began (null: before reports existed), its first
   * inbound message, its first response by a person. In no index, so the per-message update stays HOT.
   */
  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt: Date | null;

  @Column({ name: 'first_inbound_at', type: 'timestamptz', nullable: true })
  firstInboundAt: Date | null;

  @Column({ name: 'first_response_at', type: 'timestamptz', nullable: true })
  firstResponseAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
