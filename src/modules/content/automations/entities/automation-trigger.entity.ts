import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { MessageEntity } from '../../../inbox/entities/message.entity.js';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * The automations' outbox: a new inbound message of a workspace that has enabled automations,
 * written in the ingest transaction, so a crash between the commit and the enqueue loses nothing
 * (a sweeper re-enqueues rows left pending). `claimed` holds the automations that have run for it,
 * each claimed before its actions run, so a retried job never runs one twice.
 */
@Entity({ name: 'automation_triggers' })
@Index('automation_triggers_workspace_idx', ['workspaceId'])
@Index('automation_triggers_pending_idx', ['createdAt'], { where: '"done_at" IS NULL' })
export class AutomationTriggerEntity {
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: Relation<MessageEntity>;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** The message created its conversation: `conversation.created` automations run too. */
  @Column({ name: 'conversation_created', type: 'boolean' })
  conversationCreated: boolean;

  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  claimed: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set once every automation had its turn (or the trigger expired unprocessed). */
  @Column({ name: 'done_at', type: 'timestamptz', nullable: true })
  doneAt: Date | null;
}
