import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * One item of a scan session's auth state: the creds (type `creds`) or one Signal key (`pre-key`,
 * `session`, `lid-mapping`, …). Everything in it amounts to the account, so nothing is readable:
 * `value` is AES-256-GCM ciphertext and `key_id` a keyed hash of the key's id (ids name contacts:
 * `lid-mapping` ids are phone numbers, `session` ids are LIDs). Lookups are always by exact id, so
 * the hash loses nothing. The primary key leads with the workspace, which is every query's filter.
 */
@Entity({ name: 'scan_auth_keys' })
export class ScanAuthKeyEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @PrimaryColumn({ type: 'text' })
  type: string;

  @PrimaryColumn({ name: 'key_id', type: 'text' })
  keyId: string;

  @Column({ type: 'text' })
  value: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
