import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../../auth/entities/user.entity.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';
import { ContactEntity } from './contact.entity.js';

export const CONVERSATION_STATUSES = ['open', 'closed'] as const;
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
