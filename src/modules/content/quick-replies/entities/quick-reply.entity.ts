import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * A canned answer an agent inserts with `/shortcut` in the composer. Unlike a template it is
 * never sent as such: its text (placeholders filled in) lands in the reply box to edit and send.
 */
@Entity({ name: 'quick_replies' })
@Index('quick_replies_workspace_shortcut_uq', ['workspaceId', 'shortcut'], { unique: true })
export class QuickReplyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** Lower case, without the leading `/`. */
  @Column({ type: 'text' })
  shortcut: string;

  @Column({ type: 'text' })
  body: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
