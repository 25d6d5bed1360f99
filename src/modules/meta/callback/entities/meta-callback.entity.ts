import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A provider callback as received, stored before the service answers 200 so that nothing is lost
 * when the process dies right after; the `meta-callback` job processes it. Platform-level (it is
 * routed to workspaces only when processed). `body_sha256` makes the provider's retries of the
 * same bytes (for up to 7 days) a no-op; the row outlives its body for that long.
 */
@Entity({ name: 'meta_callbacks' })
@Index('meta_callbacks_body_sha256_uq', ['bodySha256'], { unique: true })
@Index('meta_callbacks_received_at_idx', ['receivedAt'])
// What the sweeper looks for: callbacks whose job may have been lost.
@Index('meta_callbacks_pending_idx', ['receivedAt'], { where: '"processed_at" IS NULL' })
export class MetaCallbackEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Lowercase hex SHA-256 of the raw body. */
  @Column({ name: 'body_sha256', type: 'text' })
  bodySha256: string;

  /** The raw bytes as received; cleared once processed (forwarded copies live in the webhook outbox). */
  @Column({ type: 'bytea', nullable: true })
  body: Buffer | null;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt: Date | null;
}
