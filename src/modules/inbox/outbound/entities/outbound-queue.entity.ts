import { Column, CreateDateColumn, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { ChannelName } from '../../../channels/channel-gateway.port.js';
import { MessageEntity } from '../../entities/message.entity.js';

/**
 * A message waiting for its turn to go out (docs/sending.md): one row per pending send of a
 * paced number (scan), or of a Cloud API send the provider asked to retry later. The row holds
 * what the channel needs to send it (media bytes too), so a worker that dies mid-queue loses
 * nothing: the next one sends every row exactly once. It goes with its message.
 */
@Entity({ name: 'outbound_queue' })
@Index('outbound_queue_workspace_ticket_idx', ['workspaceId', 'ticket'])
@Index('outbound_queue_conversation_ticket_idx', ['workspaceId', 'conversationId', 'ticket'])
export class OutboundQueueEntity {
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: Relation<MessageEntity>;

  /** The queue's order (a bigserial; bigint comes back as a string). */
  @Column({ type: 'bigint' })
  @Generated('increment')
  ticket: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId: string;

  @Column({ type: 'text' })
  channel: ChannelName;

  /** The send as the channel takes it (queued-send.codec.ts), bytes as base64. */
  @Column({ type: 'jsonb' })
  payload: unknown;

  /** Show "typing…" before it goes out. */
  @Column({ type: 'boolean', default: false })
  typing: boolean;

  /** Not before this time (a provider's back-off). */
  @Column({ name: 'not_before', type: 'timestamptz', default: () => 'now()' })
  notBefore: Date;

  /** Sends tried (a try the worker did not live to record counts too). */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @CreateDateColumn({ name: 'queued_at', type: 'timestamptz' })
  queuedAt: Date;
}
