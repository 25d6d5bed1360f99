import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { DayCountResponse } from './inbox-stats.response.js';
import { visibleTo } from '../conversations/conversation-viewer.js';

// Agents count only what they may see (unassigned conversations and their own): `$2` is the
// agent's user id, or null for viewers who see everything (as in ConversationRepository).
const VISIBLE = visibleTo('$2');

@Injectable()
export class InboxStatsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Messages per day for the `days` days up to `now`'s day in `timeZone`. Read through the
   * conversations of the workspace and the messages' (conversation_id, timestamp) index, so only
   * the window's rows are touched.
   */
  perDay(workspaceId: string, viewer: string | null, now: Date, timeZone: string, days: number): Promise<DayCountResponse[]> {
    return this.sql.query(
      `WITH window_days AS (
         SELECT d::date AS day
           FROM generate_series(($3::timestamptz AT TIME ZONE $4)::date - ($5::int - 1), ($3::timestamptz AT TIME ZONE $4)::date, interval '1 day') d
       ), counts AS (
         SELECT (m.timestamp AT TIME ZONE $4)::date AS day,
                count(*) FILTER (WHERE m.direction = 'inbound') AS inbound,
                count(*) FILTER (WHERE m.direction = 'outbound') AS outbound
           FROM conversations c
           JOIN messages m ON m.conversation_id = c.id
          WHERE c.workspace_id = $1 AND ${VISIBLE}
            AND m.timestamp >= ((SELECT min(day) FROM window_days)::timestamp AT TIME ZONE $4)
            AND m.timestamp < (((SELECT max(day) FROM window_days) + 1)::timestamp AT TIME ZONE $4)
          GROUP BY 1
       )
       SELECT to_char(w.day, 'YYYY-MM-DD') AS date, COALESCE(c.inbound, 0)::int AS inbound, COALESCE(c.outbound, 0)::int AS outbound
         FROM window_days w LEFT JOIN counts c ON c.day = w.day
        ORDER BY w.day`,
      [workspaceId, viewer, now, timeZone, days],
    );
  }

  async openCounts(workspaceId: string, viewer: string | null): Promise<{ open: number; unassigned: number }> {
    const rows = await this.sql.query<{ open: number; unassigned: number }>(
      `SELECT count(*) FILTER (WHERE c.status = 'open')::int AS open,
              count(*) FILTER (WHERE c.status = 'open' AND c.assignee_id IS NULL)::int AS unassigned
         FROM conversations c
        WHERE c.workspace_id = $1 AND ${VISIBLE}`,
      [workspaceId, viewer],
    );
    return rows[0]!;
  }
}
