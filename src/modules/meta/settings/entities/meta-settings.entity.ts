import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * A workspace's Cloud API number: at most one per workspace, and a number (`phone_number_id`)
 * belongs to at most one workspace on the platform, so every provider callback routes to exactly
 * one. The access token (and the two-step PIN Embedded Signup registered) are encrypted at rest.
 */
@Entity({ name: 'meta_settings' })
@Index('meta_settings_phone_number_id_uq', ['phoneNumberId'], { unique: true })
@Index('meta_settings_waba_id_idx', ['wabaId'])
export class MetaSettingsEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ name: 'phone_number_id', type: 'text' })
  phoneNumberId: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId: string;

  @Column({ name: 'display_phone_number', type: 'text', default: '' })
  displayPhoneNumber: string;

  @Column({ name: 'verified_name', type: 'text', default: '' })
  verifiedName: string;

  /** `EncryptionService` output (purpose `meta-access-token`). */
  @Column({ name: 'access_token', type: 'text' })
  accessToken: string;

  /** The two-step verification PIN set when signup registered the number; encrypted. */
  @Column({ name: 'registration_pin', type: 'text', nullable: true })
  registrationPin: string | null;

  /** False once the provider refused the token (code 190): sends get 409 until the settings are saved again. */
  @Column({ type: 'boolean', default: true })
  connected: boolean;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
