import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { MessageEntity } from '../../../inbox/entities/message.entity.js';

/**
 * What the driver needs to fetch a scan message's media later, from any worker: the driver's
 * opaque reference (it holds the media key, so it is stored encrypted), until the
 * `media-download` job has stored the file. Deleted with its message.
 */
@Entity({ name: 'scan_media_refs' })
@Index('scan_media_refs_workspace_idx', ['workspaceId'])
export class ScanMediaRefEntity {
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: Relation<MessageEntity>;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  /** `EncryptionService` output of the driver's `ScanMediaRef`. */
  @Column({ type: 'text' })
  ref: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
