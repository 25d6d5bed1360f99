import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * One history batch of the scan channel between its arrival and its ingest by the
 * `history-sync` job (job payloads carry ids only). The payload is the batch as JSON, encrypted
 * (it holds message texts and media keys); the row is deleted once the batch is ingested.
 */
@Entity({ name: 'scan_history_batches' })
@Index('scan_history_batches_workspace_idx', ['workspaceId'])
export class ScanHistoryBatchEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  payload: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
