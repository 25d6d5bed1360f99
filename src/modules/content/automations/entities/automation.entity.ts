import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';
import type { Action, AutomationTrigger, Condition, MatchMode } from '../automation-rules.js';

/**
 * A rule run on new messages: when its trigger fires and its conditions match, its actions run in
 * order. Enabled automations run oldest first (created_at, id): the order is stable.
 */
@Entity({ name: 'automations' })
@Index('automations_workspace_created_idx', ['workspaceId', 'createdAt'])
export class AutomationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'text' })
  trigger: AutomationTrigger;

  @Column({ type: 'text', default: 'all' })
  match: MatchMode;

  /** Validated and normalised by `parseConditions` before every write. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  conditions: Condition[];

  /** Validated and normalised by `parseActions` before every write. */
  @Column({ type: 'jsonb' })
  actions: Action[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
