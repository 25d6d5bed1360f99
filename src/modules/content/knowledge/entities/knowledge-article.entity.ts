import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../tenants/entities/workspace.entity.js';

/**
 * The text search configuration of articles (stemming and stop words of English; other languages
 * are still tokenised and matched word for word). Fixed in the trigger that fills `search` and in
 * the queries; changing it needs a migration that rebuilds the column.
 */
export const KNOWLEDGE_SEARCH_CONFIG = 'english';

/** An article the workspace answers questions from (full-text searched, title weighted above body). */
@Entity({ name: 'knowledge_articles' })
@Index('knowledge_articles_workspace_created_idx', ['workspaceId', 'createdAt'])
// GIN over `search`; created in the migration because TypeORM cannot express the index method.
@Index('knowledge_articles_search_idx', { synchronize: false })
export class KnowledgeArticleEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Relation<WorkspaceEntity>;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  body: string;

  /**
   * Title (weight A) and body (weight B) as a tsvector, written by a trigger on every insert and
   * change of either (migration 1764003100000), never by the service. A trigger rather than a
   * generated column: TypeORM tracks generated columns in a side table keyed by database name.
   */
  @Column({ type: 'tsvector', select: false, insert: false, update: false })
  search: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
