import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * A message template. On a scan workspace it is local (the service fills it in and sends the
 * text); on a Cloud API workspace it mirrors the provider's (`provider_id`, `status`, `quality`
 * set, kept current by sync and the provider's status callbacks). Name and language identify a
 * template, as they do at the provider.
 */
@Entity({ name: 'templates' })
@Index('templates_workspace_name_language_uq', ['workspaceId', 'name', 'language'], { unique: true })
@Index('templates_workspace_provider_uq', ['workspaceId', 'providerId'], { unique: true, where: '"provider_id" IS NOT NULL' })
@Index('templates_workspace_created_idx', ['workspaceId', 'createdAt'])
export class TemplateEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  name: string;

  /** The provider's language code (`en`, `en_US`, `pt_BR`). */
  @Column({ type: 'text' })
  language: string;

  /** `MARKETING`, `UTILITY` or `AUTHENTICATION` (the provider's categories). */
  @Column({ type: 'text' })
  category: string;

  /** Text with `{{1}}`-style parameters. */
  @Column({ type: 'text' })
  body: string;

  /** The provider's review status (`APPROVED`, `PENDING`, `REJECTED`, …); null for a local template. */
  @Column({ type: 'text', nullable: true })
  status: string | null;

  /** The provider's quality rating (`GREEN`, `YELLOW`, `RED`, `UNKNOWN`); null for a local template. */
  @Column({ type: 'text', nullable: true })
  quality: string | null;

  @Column({ name: 'provider_id', type: 'text', nullable: true })
  providerId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
