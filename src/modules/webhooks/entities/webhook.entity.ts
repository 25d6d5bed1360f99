import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { WorkspaceEntity } from '../../tenants/entities/workspace.entity.js';
import type { WebhookEventName } from '../events/webhook-event.catalogue.js';

export type { WebhookEventName } from '../events/webhook-event.catalogue.js';

/** A workspace's endpoint for signed event deliveries (at most 10 per workspace). */
@Entity({ name: 'webhooks' })
@Index('webhooks_workspace_idx', ['workspaceId', 'createdAt'])
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  /**
   * The URL as it may be shown: any credential in it masked (`https://user:***@host/x`; see
   * `webhook-url.credentials.ts`). Without credentials it is the URL deliveries go to.
   */
  @Column({ type: 'text' })
  url: string;

  /** The whole URL, AES-GCM sealed (purpose `webhook-url`), when it carries credentials; null otherwise. */
  @Column({ name: 'sealed_url', type: 'text', nullable: true })
  sealedUrl: string | null;

  /** The events it receives: a non-empty subset of the catalogue's (WEBHOOK_EVENTS, events/webhook-event.catalogue.ts). */
  @Column({ type: 'text', array: true })
  events: WebhookEventName[];

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** The channels whose events it receives (`scan`, `meta`); null: every channel. */
  @Column({ type: 'text', array: true, nullable: true })
  channels: ChannelName[] | null;

  /** Whether events of group chats reach it (events with no group notion always do). */
  @Column({ name: 'include_groups', type: 'boolean', default: true })
  includeGroups: boolean;

  /** Why the service disabled it (410 Gone, days of failures); null when enabled or disabled by a user. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** Start of the current run of failed attempts (null after a success): 3 days of it disables the endpoint. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
