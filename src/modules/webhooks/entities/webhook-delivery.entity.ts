import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEntity } from './webhook.entity.js';

/**
 * - `held`: written, waiting for its message's media to be stored (or given up);
 * - `pending`: due at `next_attempt_at` (a job is queued, or the sweeper queues one);
 * - `delivered`, `failed`: final.
 */
export const DELIVERY_STATUSES = ['held', 'pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one webhook: its id is the `webhook-id` header of every attempt and the id of
 * its BullMQ job.
 */
@Entity({ name: 'webhook_deliveries' })
// Event first: it also serves the joins and cascades from an event to its deliveries.
@Index('webhook_deliveries_event_webhook_uq', ['eventId', 'webhookId'], { unique: true })
@Index('webhook_deliveries_workspace_idx', ['workspaceId', 'completedAt'])
// An endpoint's due deliveries in order: what a job claims besides its own (delivery.sql.ts),
// and what the sweeper probes per endpoint for overdue ones (OutboxRepository.overdue).
@Index('webhook_deliveries_endpoint_due_idx', ['webhookId', 'nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('webhook_deliveries_held_idx', ['createdAt'], { where: `"status" = 'held'` })
export class WebhookDeliveryEntity {
  // Time-ordered (migration 1764011000000): appended to its indexes' rightmost leaves.
  @PrimaryColumn({ type: 'uuid', default: () => 'time_ordered_uuid()' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  // No foreign key: its check locked the webhook row for every delivery written, and its cascade
  // scanned the whole table. Writers lock the webhooks they read (FOR KEY SHARE, once per
  // statement), and a statement trigger on webhooks deletes a webhook's deliveries with it
  // (migration 1764010700000).
  @ManyToOne(() => WebhookEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'webhook_id' })
  webhook?: Relation<WebhookEntity>;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  // No foreign key: the event is written in the same statement as its deliveries, and the key's
  // check cost the ingest path a lookup and a row lock per message. A statement trigger on
  // webhook_events deletes an event's deliveries with it (migration 1764010300000).
  @ManyToOne(() => WebhookEventEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'event_id' })
  eventRow?: Relation<WebhookEventEntity>;

  @Column({ type: 'text' })
  status: DeliveryStatus;

  /** Attempts made so far. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  /** Claimed by a job that is sending it until then (no other job may); null when unclaimed. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
