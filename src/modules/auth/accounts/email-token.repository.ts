import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { EmailTokenPurpose } from '../entities/email-token.entity.js';

/** One-time email tokens, keyed by their SHA-256 (users are global, so no workspace id here). */
@Injectable()
export class EmailTokenRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Stores a new token and retires the user's older unused ones of the same purpose. The user row
   * is locked first, so two requests at once take turns and the later one retires the earlier
   * one's token: only the newest link works, even under concurrency. (NO KEY UPDATE: it does not
   * block other tables' inserts that merely reference the user, such as new sessions.)
   */
  replace(userId: string, purpose: EmailTokenPurpose, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
    return inTypeormTransaction(this.db, async (tx) => {
      await tx.query(`SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
      await tx.query(`UPDATE email_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose, now]);
      await tx.query(`INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4)`, [userId, purpose, tokenHash, expiresAt]);
    });
  }

  /**
   * Uses the token up and answers its user, or null when it is unknown, of another purpose,
   * expired or already used. One statement, so two clicks on the same link cannot both win.
   */
  async consume(purpose: EmailTokenPurpose, tokenHash: string, now: Date): Promise<string | null> {
    const rows = await this.sql.query<{ user_id: string }>(
      `UPDATE email_tokens SET used_at = $3
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
        RETURNING user_id`,
      [tokenHash, purpose, now],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Retires every unused token of the purpose (a reset link stops working once another one was used). */
  async retireAll(userId: string, purpose: EmailTokenPurpose, now: Date): Promise<void> {
    await this.sql.execute(`UPDATE email_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose, now]);
  }
}
