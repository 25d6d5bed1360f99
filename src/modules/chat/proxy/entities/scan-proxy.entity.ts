import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * A number's own egress proxy (`PUT /api/chat/proxy`); a workspace without a row uses
 * WA_PROXY_URL, if set. The URL may carry the proxy's password, so all of it is sealed.
 */
@Entity({ name: 'scan_proxies' })
export class ScanProxyEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** The checked URL in its canonical spelling, AES-GCM sealed (purpose `scan-proxy-url`). */
  @Column({ name: 'sealed_url', type: 'text' })
  sealedUrl: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
