import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';

/** A queued send as the lane reads it (the payload decoded by the caller). */
export interface QueuedRow {
  messageId: string;
  ticket: string;
  workspaceId: string;
  conversationId: string;
  channel: ChannelName;
  typing: boolean;
  attempts: number;
  queuedAt: Date;
}

export interface NewQueuedRow {
  messageId: string;
  conversationId: string;
  channel: ChannelName;
  payload: unknown;
  typing: boolean;
  /** Not before this many ms from now (a provider's back-off); 0: at its turn. */
  delayMs?: number;
}

/** One queued message's place, for `GET /api/chat/queue`. */
export interface QueuePlace {
  id: string;
  conversationId: string;
  position: number;
  queuedAt: Date;
  notBefore: Date;
}

export interface QueueDepth {
  depth: number;
  oldestQueuedAt: Date | null;
}

const ROW = `message_id AS "messageId", ticket::text AS ticket, workspace_id AS "workspaceId", conversation_id AS "conversationId",
  channel, typing, attempts, queued_at AS "queuedAt"`;

// The row is the first of its chat in the queue.
const CHAT_HEAD = `NOT EXISTS (SELECT 1 FROM outbound_queue e WHERE e.workspace_id = q.workspace_id AND e.conversation_id = q.conversation_id AND e.ticket < q.ticket)`;

/** `outbound_queue`: the sends waiting for their number's turn (docs/sending.md). */
@Injectable()
export class OutboundQueueRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Queues a send. In a transaction, a chat's sends take their tickets one transaction at a time
   * (a lock on the chat until commit), so the queue's order is the order they were stored in.
   * Answers the send's place in the queue.
   */
  async insert(workspaceId: string, row: NewQueuedRow, tx: SqlExecutor = this.sql): Promise<number> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('outbound-chat:' || $1))`, [row.conversationId]);
    await tx.query(
      `INSERT INTO outbound_queue (message_id, workspace_id, conversation_id, channel, payload, typing, not_before)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000))`,
      [row.messageId, workspaceId, row.conversationId, row.channel, JSON.stringify(row.payload), row.typing, row.delayMs ?? 0],
    );
    return (await this.position(workspaceId, row.messageId, tx)) ?? 1;
  }

  /** Whether the chat has sends waiting: a new one must queue behind them (order per chat). */
  async hasQueued(workspaceId: string, conversationId: string): Promise<boolean> {
    const rows = await this.sql.query<unknown>(`SELECT 1 FROM outbound_queue WHERE workspace_id = $1 AND conversation_id = $2 LIMIT 1`, [
      workspaceId,
      conversationId,
    ]);
    return rows.length > 0;
  }

  /**
   * The next send of the number on one of `channels` (those connected now): the oldest row whose
   * time has come among the first rows of their chats (a chat's later row never overtakes an
   * earlier one held back by the provider). Without its payload, which may be large.
   */
  async nextDue(workspaceId: string, channels: readonly ChannelName[]): Promise<QueuedRow | null> {
    const rows = await this.sql.query<QueuedRow>(
      `SELECT ${ROW} FROM outbound_queue q
        WHERE q.workspace_id = $1 AND q.not_before <= now() AND q.channel = ANY($2::text[]) AND ${CHAT_HEAD}
        ORDER BY q.ticket LIMIT 1`,
      [workspaceId, channels],
    );
    return rows[0] ?? null;
  }

  /** The payload of a queued send (null: gone meanwhile). */
  async payload(workspaceId: string, messageId: string): Promise<unknown> {
    const rows = await this.sql.query<{ payload: unknown }>(`SELECT payload FROM outbound_queue WHERE workspace_id = $1 AND message_id = $2`, [
      workspaceId,
      messageId,
    ]);
    return rows[0]?.payload ?? null;
  }

  /**
   * Ms until the first row of a chat may go (0: one may go now), over the chats whose first row is
   * on `channels`; null when there is none (the number's queue is empty for them).
   */
  async msUntilNext(workspaceId: string, channels: readonly ChannelName[]): Promise<number | null> {
    const rows = await this.sql.query<{ ms: number | null }>(
      `SELECT (EXTRACT(EPOCH FROM (min(q.not_before) - now())) * 1000)::float8 AS ms FROM outbound_queue q
        WHERE q.workspace_id = $1 AND q.channel = ANY($2::text[]) AND ${CHAT_HEAD}`,
      [workspaceId, channels],
    );
    const ms = rows[0]?.ms ?? null;
    return ms === null ? null : Math.max(0, ms);
  }

  /** A try starts: counted before the send, so one the worker did not live to record counts too. */
  async markAttempt(workspaceId: string, messageId: string): Promise<number> {
    const rows = await this.sql.query<{ attempts: number }>(
      `UPDATE outbound_queue SET attempts = attempts + 1 WHERE workspace_id = $1 AND message_id = $2 RETURNING attempts`,
      [workspaceId, messageId],
    );
    return rows[0]?.attempts ?? 0;
  }

  /** Holds a row back for `ms` (scope chat), or every row of the number (scope number). */
  async holdBack(workspaceId: string, ms: number, messageId: string | null): Promise<void> {
    await this.sql.query(
      `UPDATE outbound_queue SET not_before = GREATEST(not_before, now() + make_interval(secs => $2::double precision / 1000))
        WHERE workspace_id = $1 AND ($3::uuid IS NULL OR message_id = $3)`,
      [workspaceId, ms, messageId],
    );
  }

  async remove(workspaceId: string, messageId: string): Promise<void> {
    await this.sql.query(`DELETE FROM outbound_queue WHERE workspace_id = $1 AND message_id = $2`, [workspaceId, messageId]);
  }

  async depth(workspaceId: string): Promise<QueueDepth> {
    const rows = await this.sql.query<{ depth: number; oldest: Date | null }>(
      `SELECT count(*)::int AS depth, min(queued_at) AS oldest FROM outbound_queue WHERE workspace_id = $1`,
      [workspaceId],
    );
    return { depth: rows[0]?.depth ?? 0, oldestQueuedAt: rows[0]?.oldest ?? null };
  }

  /** 1-based place of a message in its number's queue; null when it is not queued. */
  async position(workspaceId: string, messageId: string, tx: SqlExecutor = this.sql): Promise<number | null> {
    const rows = await tx.query<{ position: number }>(
      `SELECT (SELECT count(*) FROM outbound_queue o WHERE o.workspace_id = $1 AND o.ticket <= q.ticket)::int AS position
         FROM outbound_queue q WHERE q.workspace_id = $1 AND q.message_id = $2`,
      [workspaceId, messageId],
    );
    return rows[0]?.position ?? null;
  }

  async places(workspaceId: string, limit: number): Promise<QueuePlace[]> {
    return this.sql.query<QueuePlace>(
      `SELECT message_id AS id, conversation_id AS "conversationId", (row_number() OVER (ORDER BY ticket))::int AS position,
              queued_at AS "queuedAt", not_before AS "notBefore"
         FROM outbound_queue WHERE workspace_id = $1 ORDER BY ticket LIMIT $2`,
      [workspaceId, limit],
    );
  }

  /** Numbers with a send whose time has come (the sweeper wakes their lanes). */
  async dueWorkspaces(): Promise<string[]> {
    const rows = await this.sql.query<{ workspace_id: string }>(`SELECT DISTINCT workspace_id FROM outbound_queue WHERE not_before <= now()`);
    return rows.map((row) => row.workspace_id);
  }

  /** Depth and oldest wait per number, for the metrics. */
  async depths(): Promise<{ workspaceId: string; depth: number; oldestS: number }[]> {
    return this.sql.query(
      `SELECT workspace_id AS "workspaceId", count(*)::int AS depth, EXTRACT(EPOCH FROM now() - min(queued_at))::float8 AS "oldestS"
         FROM outbound_queue GROUP BY workspace_id`,
    );
  }
}
