import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../infra/database/sql-executor.js';

/** The report's window: [start, end) as instants, its days as dates in `timeZone`. */
export interface ReportWindow {
  from: string;
  to: string;
  timeZone: string;
}

export interface TotalsRow {
  opened: number;
  closed: number;
  first_response_count: number;
  first_response_median_s: number | null;
  first_response_average_s: number | null;
  resolution_count: number;
  resolution_median_s: number | null;
  resolution_average_s: number | null;
}

export interface DayRow {
  date: string;
  opened: number;
  closed: number;
  first_response_median_s: number | null;
  resolution_median_s: number | null;
}

export interface AgentRow {
  user_id: string;
  name: string;
  closed: number;
  first_responses: number;
  first_response_median_s: number | null;
  resolution_median_s: number | null;
}

// The window's rows of the log, read through (workspace_id, at): $1 workspace, $2 first day,
// $3 last day (dates), $4 the zone the days are in.
const WINDOW = `
  SELECT a.kind, a.at, a.user_id, a.seconds, (a.at AT TIME ZONE $4)::date AS day
    FROM conversation_activity a
   WHERE a.workspace_id = $1
     AND a.at >= ($2::date::timestamp AT TIME ZONE $4)
     AND a.at < (($3::date + 1)::timestamp AT TIME ZONE $4)`;

const median = (kind: string): string =>
  `round(percentile_cont(0.5) WITHIN GROUP (ORDER BY w.seconds) FILTER (WHERE w.kind = '${kind}' AND w.seconds IS NOT NULL))::int`;
const average = (kind: string): string => `round(avg(w.seconds) FILTER (WHERE w.kind = '${kind}'))::int`;

/** SQL of the reports: the activity log's writes beside a send, and its reads. */
@Injectable()
export class ReportsRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * In a send's transaction, after the conversation took the first response
   * (ConversationRepository.takeFirstResponse): its log row, credited to `userId`.
   */
  async recordFirstResponse(
    workspaceId: string,
    tx: SqlExecutor,
    conversationId: string,
    at: Date,
    firstInboundAt: Date,
    userId: string | null,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO conversation_activity (workspace_id, conversation_id, kind, at, user_id, seconds)
       VALUES ($1, $2, 'first_response', $3, $4::uuid, round(extract(epoch FROM $3::timestamptz - $5::timestamptz))::int)`,
      [workspaceId, conversationId, at, userId, firstInboundAt],
      'reports_first_response',
    );
  }

  async totals(workspaceId: string, window: ReportWindow): Promise<TotalsRow> {
    const rows = await this.sql.query<TotalsRow>(
      `SELECT count(*) FILTER (WHERE w.kind = 'opened')::int AS opened,
              count(*) FILTER (WHERE w.kind = 'closed')::int AS closed,
              count(*) FILTER (WHERE w.kind = 'first_response')::int AS first_response_count,
              ${median('first_response')} AS first_response_median_s,
              ${average('first_response')} AS first_response_average_s,
              count(w.seconds) FILTER (WHERE w.kind = 'closed')::int AS resolution_count,
              ${median('closed')} AS resolution_median_s,
              ${average('closed')} AS resolution_average_s
         FROM (${WINDOW}) w`,
      [workspaceId, window.from, window.to, window.timeZone],
    );
    return rows[0]!;
  }

  /** Every day of the window, oldest first; days without activity count 0 (medians null). */
  perDay(workspaceId: string, window: ReportWindow): Promise<DayRow[]> {
    return this.sql.query<DayRow>(
      `WITH w AS (${WINDOW}), per_day AS (
         SELECT w.day,
                count(*) FILTER (WHERE w.kind = 'opened')::int AS opened,
                count(*) FILTER (WHERE w.kind = 'closed')::int AS closed,
                ${median('first_response')} AS first_response_median_s,
                ${median('closed')} AS resolution_median_s
           FROM w GROUP BY w.day
       )
       SELECT to_char(d, 'YYYY-MM-DD') AS date, COALESCE(p.opened, 0) AS opened, COALESCE(p.closed, 0) AS closed,
              p.first_response_median_s, p.resolution_median_s
         FROM generate_series($2::date, $3::date, interval '1 day') d
         LEFT JOIN per_day p ON p.day = d::date
        ORDER BY d`,
      [workspaceId, window.from, window.to, window.timeZone],
    );
  }

  /**
   * One row per member of the workspace, and per former member with activity in the window (name
   * '' once their account is gone); most closed first, then by name.
   */
  perAgent(workspaceId: string, window: ReportWindow): Promise<AgentRow[]> {
    return this.sql.query<AgentRow>(
      `WITH w AS (${WINDOW}), per_user AS (
         SELECT w.user_id,
                count(*) FILTER (WHERE w.kind = 'closed')::int AS closed,
                count(*) FILTER (WHERE w.kind = 'first_response')::int AS first_responses,
                ${median('first_response')} AS first_response_median_s,
                ${median('closed')} AS resolution_median_s
           FROM w WHERE w.user_id IS NOT NULL AND w.kind <> 'opened' GROUP BY w.user_id
       ), people AS (
         SELECT user_id FROM workspace_members WHERE workspace_id = $1
          UNION
         SELECT user_id FROM per_user
       )
       SELECT p.user_id, COALESCE(NULLIF(u.name, ''), u.email, '') AS name, COALESCE(s.closed, 0) AS closed, COALESCE(s.first_responses, 0) AS first_responses,
              s.first_response_median_s, s.resolution_median_s
         FROM people p
         LEFT JOIN per_user s ON s.user_id = p.user_id
         LEFT JOIN users u ON u.id = p.user_id
        ORDER BY COALESCE(s.closed, 0) DESC, COALESCE(s.first_responses, 0) DESC, COALESCE(u.name, ''), p.user_id`,
      [workspaceId, window.from, window.to, window.timeZone],
    );
  }
}
