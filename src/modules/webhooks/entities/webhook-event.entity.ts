import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';

/**
 * One event of the outbox: the exact bytes every delivery of it POSTs and signs, stored once
 * however many webhooks receive it. Unique per (workspace, event, source key): writing the same
 * event twice is a no-op. An event without a key (one per new message, written with it) relies on
 * its source's own uniqueness.
 */
@Entity({ name: 'webhook_events' })
@Index('webhook_events_source_uq', ['workspaceId', 'event', 'sourceKey'], { unique: true })
@Index('webhook_events_message_idx', ['messageId'], { where: '"message_id" IS NOT NULL' })
// BRIN on created_at (the pruner's only look-up; migrations 1764010200000 and 1764010500000): TypeORM cannot express it.
@Index('webhook_events_created_idx', { synchronize: false })
export class WebhookEventEntity {
  // Time-ordered (migration 1764011000000): appended to its indexes' rightmost leaves.
  @PrimaryColumn({ type: 'uuid', default: () => 'time_ordered_uuid()' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  // No foreign key: its check locked the workspace row for every event of the ingest path. A
  // statement trigger on workspaces deletes a workspace's events with it (migration 1764010400000).
  @ManyToOne(() => WorkspaceEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  event: string;

  @Column({ name: 'source_key', type: 'text', nullable: true })
  sourceKey: string | null;

  @Column({ type: 'bytea' })
  body: Buffer;

  /** The inbox message whose media its deliveries wait for; null once they need not (kept only while held, to keep the index small). */
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
