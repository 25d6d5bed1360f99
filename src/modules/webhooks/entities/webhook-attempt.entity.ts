import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';

/** `delivered` (2xx), `retrying` (failed, another attempt is scheduled) or `failed` (for good). */
export const ATTEMPT_STATUSES = ['delivered', 'retrying', 'failed'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** One HTTP attempt of a delivery: the delivery log. */
@Entity({ name: 'webhook_attempts' })
@Index('webhook_attempts_log_idx', ['workspaceId', 'webhookId', 'createdAt'])
@Index('webhook_attempts_delivery_idx', ['deliveryId'])
export class WebhookAttemptEntity {
  // Time-ordered (migration 1764011000000): appended to its indexes' rightmost leaves.
  @PrimaryColumn({ type: 'uuid', default: () => 'time_ordered_uuid()' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  /** Its delivery's webhook, for the log (no foreign key of its own: the delivery's cascades). */
  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: Relation<WebhookDeliveryEntity>;

  /** 1 for the first attempt of the delivery. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'text' })
  status: AttemptStatus;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** When the attempt started. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
