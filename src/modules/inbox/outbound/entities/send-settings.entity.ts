import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/** A workspace's own sending settings (PATCH /api/chat/limits); without a row the SEND_* defaults hold. */
@Entity({ name: 'send_settings' })
@Check('send_settings_typing_ck', `"typing" IN ('automations', 'all', 'off')`)
export class SendSettingsEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ name: 'min_gap_ms', type: 'integer' })
  minGapMs: number;

  @Column({ name: 'jitter_ms', type: 'integer' })
  jitterMs: number;

  @Column({ name: 'per_minute', type: 'integer' })
  perMinute: number;

  @Column({ type: 'integer' })
  burst: number;

  @Column({ type: 'text' })
  typing: 'automations' | 'all' | 'off';

  @Column({ name: 'first_contacts_per_day', type: 'integer' })
  firstContactsPerDay: number;

  @Column({ name: 'unanswered_per_chat', type: 'integer' })
  unansweredPerChat: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
