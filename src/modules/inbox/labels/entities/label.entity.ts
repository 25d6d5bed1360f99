import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * A workspace label. Conversations and contacts carry the ids of theirs in `label_ids`; this row
 * holds the name and colour.
 */
@Entity({ name: 'labels' })
// Unique per (workspace, lower(name)): an expression index TypeORM cannot describe, created in
// migration 1764011710000 and declared here only so the schema builder leaves it alone.
@Index('labels_workspace_name_uq', { synchronize: false })
export class LabelEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  name: string;

  /** `#rrggbb`, lower case. */
  @Column({ type: 'text' })
  color: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
