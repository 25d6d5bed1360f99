import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * What WhatsApp answered when the number asked whether a phone is on WhatsApp (`GET /api/chat/check`,
 * and the check before a first message): one row per workspace and phone, the latest answer.
 */
@Entity({ name: 'scan_number_checks' })
export class ScanNumberCheckEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** Digits only (E.164 without `+`). */
  @PrimaryColumn({ name: 'phone', type: 'text' })
  phone: string;

  @Column({ name: 'exists', type: 'boolean' })
  exists: boolean;

  /** The chat id WhatsApp answered; null when the phone is not on WhatsApp. */
  @Column({ name: 'jid', type: 'text', nullable: true })
  jid: string | null;

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
