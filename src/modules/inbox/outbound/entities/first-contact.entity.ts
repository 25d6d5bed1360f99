import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ConversationEntity } from '../../entities/conversation.entity.js';

/**
 * A chat this number started: its first send went out before the contact ever wrote. Counted
 * against `first_contacts_per_day` for 24 hours; a chat is counted once (docs/sending.md).
 */
@Entity({ name: 'send_first_contacts' })
@Index('send_first_contacts_workspace_at_idx', ['workspaceId', 'at'])
export class FirstContactEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @PrimaryColumn({ name: 'conversation_id', type: 'uuid' })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: Relation<ConversationEntity>;

  @Column({ type: 'timestamptz' })
  at: Date;
}
