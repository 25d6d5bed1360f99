import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { ConversationEntity } from '../../inbox/entities/conversation.entity.js';

export const ACTIVITY_KINDS = ['opened', 'first_response', 'closed'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * The reports' log: one row per opening, first response and closing of a conversation
 * (docs/inbox.md, "Reports"). Openings and closings are written by triggers on `conversations`
 * (migration 1764011730000), first responses by the send's transaction (FirstResponseHook).
 * Rows reach the workspace cascade through their conversation, as messages do (one foreign key
 * check per insert). `user_id` is not a foreign key: a removed member's figures keep their id.
 */
@Entity({ name: 'conversation_activity' })
@Check('conversation_activity_kind_ck', `"kind" IN ('opened', 'first_response', 'closed')`)
@Index('conversation_activity_workspace_at_idx', ['workspaceId', 'at'])
export class ConversationActivityEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Index('conversation_activity_conversation_idx')
  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: Relation<ConversationEntity>;

  @Column({ type: 'text' })
  kind: ActivityKind;

  @Column({ type: 'timestamptz' })
  at: Date;

  /** The agent: the sender of a first response, else the conversation's assignee at the time. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  /** first_response: seconds since the opening's first inbound message; closed: since the opening (null: opened before reports existed). */
  @Column({ type: 'integer', nullable: true })
  seconds: number | null;
}
