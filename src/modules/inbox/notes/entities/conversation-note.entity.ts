import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { UserEntity } from '../../../auth/entities/user.entity.js';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';
import { ConversationEntity } from '../../entities/conversation.entity.js';

/**
 * A private note on a conversation: written by the team for the team. It never leaves the
 * service (no channel, no webhook), so it lives in its own table and not among the messages.
 */
@Entity({ name: 'conversation_notes' })
// The timeline reads a conversation's notes oldest first.
@Index('conversation_notes_conversation_created_idx', ['conversationId', 'createdAt'])
export class ConversationNoteEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: Relation<ConversationEntity>;

  /** The member who wrote it; null for an API key (or once the user is deleted). */
  // Partial: deleting a user finds their notes without indexing the key-written ones.
  @Index('conversation_notes_author_id_idx', { where: '"author_id" IS NOT NULL' })
  @Column({ name: 'author_id', type: 'uuid', nullable: true })
  authorId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'author_id' })
  author?: Relation<UserEntity>;

  @Column({ type: 'text' })
  body: string;

  /** User ids of the members the note mentions; the GIN index serves "my mentions". */
  @Index('conversation_notes_mentions_idx', { synchronize: false })
  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  mentions: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
