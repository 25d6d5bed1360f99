import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';

/**
 * A person the workspace talks to. WhatsApp identifies people by phone number and, more and more,
 * by an opaque id: the LID on the scan channel, the business-scoped user id (BSUID) on the Cloud
 * API. Any of them may be missing, so all are kept and each is unique per workspace.
 */
@Entity({ name: 'contacts' })
@Index('contacts_workspace_phone_uq', ['workspaceId', 'phone'], { unique: true, where: '"phone" IS NOT NULL' })
@Index('contacts_workspace_lid_uq', ['workspaceId', 'lid'], { unique: true, where: '"lid" IS NOT NULL' })
@Index('contacts_workspace_bsuid_uq', ['workspaceId', 'bsuid'], { unique: true, where: '"bsuid" IS NOT NULL' })
@Index('contacts_workspace_created_idx', ['workspaceId', 'createdAt'])
export class ContactEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** Digits only (E.164 without `+`). */
  @Column({ type: 'text', nullable: true })
  phone: string | null;

  /** WhatsApp LID user part (the digits before `@lid`). */
  @Column({ type: 'text', nullable: true })
  lid: string | null;

  /**
   * The Cloud API's business-scoped user id (`US.1349…`): how the provider names people who hide
   * their phone number behind a username. Stable per business portfolio.
   */
  @Column({ type: 'text', nullable: true })
  bsuid: string | null;

  @Column({ type: 'text', default: '' })
  name: string;

  /** The workspace labels on the contact (ids of `labels` rows). */
  @Column({ name: 'label_ids', type: 'uuid', array: true, default: () => "'{}'" })
  labelIds: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
