import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../infra/database/sql-executor.js';

/** Which message a media file belongs to, and whether an agent may see its conversation. */
@Injectable()
export class MediaAccessRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Whether message `messageId` of the workspace is in a conversation `agentId` can see over REST
   * (unassigned or assigned to them). One lookup by the two primary keys.
   */
  async visibleToAgent(workspaceId: string, messageId: string, agentId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(
      `SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id AND c.workspace_id = m.workspace_id
        WHERE m.workspace_id = $1 AND m.id = $2 AND (c.assignee_id IS NULL OR c.assignee_id = $3)`,
      [workspaceId, messageId, agentId],
    );
    return rows.length > 0;
  }
}
