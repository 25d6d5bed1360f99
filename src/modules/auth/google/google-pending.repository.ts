import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

/** What Google vouched for, kept until the person accepts the terms. */
export interface PendingSignup {
  id: string;
  googleSub: string;
  email: string;
  emailVerified: boolean;
  name: string;
  expiresAt: Date;
}

const COLUMNS = `id, google_sub AS "googleSub", email, email_verified AS "emailVerified", name, expires_at AS "expiresAt"`;

/** Pending Google sign-ups, keyed by the SHA-256 of their cookie token (not tenant-owned). */
@Injectable()
export class GooglePendingRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * Stores a pending sign-up. It replaces older ones of the same Google account (only the newest
   * browser's cookie works) and sweeps expired rows of anyone, so the table stays small without
   * a timer.
   */
  async replace(input: Omit<PendingSignup, 'id'> & { tokenHash: string }, now: Date): Promise<void> {
    await inTypeormTransaction(this.db, async (tx) => {
      await tx.query(`DELETE FROM google_pending_signups WHERE google_sub = $1 OR expires_at <= $2`, [input.googleSub, now]);
      await tx.query(`INSERT INTO google_pending_signups (token_hash, google_sub, email, email_verified, name, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        input.tokenHash,
        input.googleSub,
        input.email,
        input.emailVerified,
        input.name,
        input.expiresAt,
      ]);
    });
  }

  /** The pending sign-up of this token, live or expired (the caller tells them apart), or null. */
  async find(tokenHash: string): Promise<PendingSignup | null> {
    const rows = await this.sql.query<PendingSignup>(`SELECT ${COLUMNS} FROM google_pending_signups WHERE token_hash = $1`, [tokenHash]);
    return rows[0] ?? null;
  }

  /**
   * The pending sign-up, row-locked until `tx` ends: two confirms of one sign-up take turns, and
   * the second finds it gone.
   */
  async findForUpdate(tx: SqlExecutor, tokenHash: string): Promise<PendingSignup | null> {
    const rows = await tx.query<PendingSignup>(`SELECT ${COLUMNS} FROM google_pending_signups WHERE token_hash = $1 FOR UPDATE`, [tokenHash]);
    return rows[0] ?? null;
  }

  async delete(id: string, q: SqlExecutor = this.sql): Promise<void> {
    await q.execute(`DELETE FROM google_pending_signups WHERE id = $1`, [id]);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return inTypeormTransaction(this.db, work);
  }
}
