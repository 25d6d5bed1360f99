import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';

/** What a pending update does to its target (message-updates.service.ts). */
export const PENDING_UPDATE_KINDS = ['reaction', 'edit', 'revoke'] as const;
export type PendingUpdateKind = (typeof PENDING_UPDATE_KINDS)[number];

/**
 * A reaction, edit or revoke that arrived before the message it acts on (channels deliver out of
 * order: a reaction to a message still in the offline queue, an edit before its original's retry).
 * Applied when its target is stored; dropped and counted after a few minutes.
 */
@Entity({ name: 'pending_message_updates' })
@Index('pending_message_updates_target_idx', ['workspaceId', 'channel', 'targetExternalId'])
@Index('pending_message_updates_received_idx', ['receivedAt'])
export class PendingMessageUpdateEntity {
  // A bigserial: comes back as a string.
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  channel: ChannelName;

  /** The channel id of the message it acts on. */
  @Column({ name: 'target_external_id', type: 'text' })
  targetExternalId: string;

  @Column({ type: 'text' })
  kind: PendingUpdateKind;

  /** The update itself (its emoji and sender, its new text, …), as the updates service wrote it. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
