import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/**
 * The snooze wake-up sweep's lookup, across workspaces (the one exception to "the workspace id
 * first": the sweep serves every workspace, and each wake-up then runs per workspace through
 * ConversationRepository.wake). Reads the partial index (snoozed_until) WHERE status = 'snoozed',
 * which holds snoozed rows only; a round with nothing due is one index probe.
 */
@Injectable()
export class SnoozedConversationsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Snoozed conversations due at `now`, the longest overdue first. */
  due(now: Date, limit: number): Promise<{ workspaceId: string; id: string }[]> {
    return this.sql.query(
      `SELECT c.workspace_id AS "workspaceId", c.id FROM conversations c
        WHERE c.status = 'snoozed' AND c.snoozed_until <= $1
        ORDER BY c.snoozed_until LIMIT $2`,
      [now, limit],
    );
  }
}
