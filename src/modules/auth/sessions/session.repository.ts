import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { SessionPrincipal } from '../auth.types.js';

interface SessionRow {
  session_id: string;
  user_id: string;
  email: string;
  name: string;
  email_verified_at: Date | null;
  last_seen_at: Date | null;
}

/** Sessions belong to users, not workspaces, so methods here are keyed by user or token hash. */
@Injectable()
export class SessionRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  async create(userId: string, tokenHash: string, expiresAt: Date, meta: { ip?: string; userAgent?: string }): Promise<string> {
    const rows = await this.sql.query<{ id: string }>(
      `INSERT INTO sessions (user_id, token_hash, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [userId, tokenHash, expiresAt, meta.ip ?? null, meta.userAgent?.slice(0, 512) ?? null],
    );
    return rows[0]!.id;
  }

  /** The live session of this token hash at `now` (the caller's clock, not the database's). */
  async findActive(tokenHash: string, now: Date): Promise<(SessionPrincipal & { lastSeenAt: Date | null }) | null> {
    const rows = await this.sql.query<SessionRow>(
      `SELECT s.id AS session_id, s.last_seen_at, u.id AS user_id, u.email, u.name, u.email_verified_at
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [tokenHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      type: 'session',
      sessionId: row.session_id,
      userId: row.user_id,
      email: row.email,
      name: row.name,
      emailVerified: row.email_verified_at !== null,
      lastSeenAt: row.last_seen_at,
    };
  }

  async touch(sessionId: string, at: Date): Promise<void> {
    await this.sql.query(`UPDATE sessions SET last_seen_at = $2 WHERE id = $1`, [sessionId, at]);
  }

  async delete(sessionId: string): Promise<void> {
    await this.sql.query(`DELETE FROM sessions WHERE id = $1`, [sessionId]);
  }

  async deleteAllForUser(userId: string): Promise<void> {
    await this.sql.query(`DELETE FROM sessions WHERE user_id = $1`, [userId]);
  }
}
