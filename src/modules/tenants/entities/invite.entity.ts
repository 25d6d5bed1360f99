import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { UserEntity } from '../../auth/entities/user.entity.js';
import type { Role } from './workspace-member.entity.js';
import { WorkspaceEntity } from './workspace.entity.js';

/**
 * An invitation to join a workspace, sent by email. Only the SHA-256 of the link's token is
 * stored; `accepted_at` makes it single use. Revoking deletes the row.
 */
@Entity({ name: 'invites' })
// At most one pending invite per (workspace, lower(email)): a partial expression index that
// TypeORM cannot describe, so it lives in migration 1764000400000 and is declared here only to
// keep the schema builder from dropping it.
@Index('invites_pending_email_uq', { synchronize: false })
export class InviteEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('invites_workspace_id_idx')
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /** Stored lower-cased, compared with the accepting user's (lower-cased) email. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: Role;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by' })
  inviter?: Relation<UserEntity>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;
}
