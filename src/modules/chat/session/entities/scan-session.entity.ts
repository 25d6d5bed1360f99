import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';
import type { RowState } from '../session-state.js';

export const SCAN_DESIRES = ['running', 'stopped'] as const;
export type ScanDesire = (typeof SCAN_DESIRES)[number];

/**
 * The durable half of a workspace's scan session (the live half, socket and QR, is in Redis):
 * whether an owner wants it running, whether the number is linked, and why it last stopped.
 * Workers resume every session that is wanted and linked, so a restart needs no new QR.
 */
@Entity({ name: 'scan_sessions' })
export class ScanSessionEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text', default: 'stopped' })
  desired: ScanDesire;

  @Column({ type: 'boolean', default: false })
  linked: boolean;

  /** The linked number's channel id, once linked. */
  @Column({ type: 'text', nullable: true })
  jid: string | null;

  /** The last QR code expired unscanned: the QR endpoint says so until the next connect. */
  @Column({ name: 'qr_expired', type: 'boolean', default: false })
  qrExpired: boolean;

  /** Why the session stopped on its own (banned, replaced, keeps failing); null once it connects. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** Failed connections in a row (reset when it connects). */
  @Column({ type: 'integer', default: 0 })
  failures: number;

  /**
   * The state as far as the row knows it (session-state.ts): how the session rests when no worker
   * holds it (`stopped`, `logged_out`, `failed`, `passkey_required`), or `starting` / `connected`
   * while it is wanted; the holder's live state (Redis) is finer.
   */
  @Column({ type: 'text', default: 'stopped' })
  state: RowState;

  /** Since when `state` holds. */
  @Column({ name: 'state_since', type: 'timestamptz', default: () => 'now()' })
  stateSince: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
