import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  /** The linked Google account's `sub`, or null. */
  googleSub: string | null;
  createdAt: Date;
}

const COLUMNS = `id, email, name, password_hash AS "passwordHash", email_verified_at AS "emailVerifiedAt", google_sub AS "googleSub", created_at AS "createdAt"`;
const UNIQUE_VIOLATION = '23505';

const isUniqueViolation = (error: unknown): boolean => (error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION;

/** Users are global (not tenant-owned): methods are keyed by user id or email. */
@Injectable()
export class UserRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** The new user, or null when the email is taken (also under a concurrent sign-up). */
  async create(email: string, name: string, passwordHash: string): Promise<UserRecord | null> {
    try {
      const rows = await this.sql.query<UserRecord>(`INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [
        email,
        name,
        passwordHash,
      ]);
      return rows[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * A user created by Google sign-in: no password, linked to `googleSub`. Null when the email or
   * the Google account is taken (also under a concurrent sign-up).
   */
  async createFromGoogle(q: SqlExecutor, input: { email: string; name: string; googleSub: string; emailVerifiedAt: Date | null }): Promise<UserRecord | null> {
    try {
      const rows = await q.query<UserRecord>(`INSERT INTO users (email, name, google_sub, email_verified_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [
        input.email,
        input.name,
        input.googleSub,
        input.emailVerifiedAt,
      ]);
      return rows[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** The user with this email, row-locked until the transaction of `tx` ends (linking decides on it). */
  async findByEmailForUpdate(tx: SqlExecutor, email: string): Promise<UserRecord | null> {
    const rows = await tx.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE email = $1 FOR NO KEY UPDATE`, [email]);
    return rows[0] ?? null;
  }

  async findByGoogleSub(googleSub: string, q: SqlExecutor = this.sql): Promise<UserRecord | null> {
    const rows = await q.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE google_sub = $1`, [googleSub]);
    return rows[0] ?? null;
  }

  /** Links a Google account to a user who has none yet; false when the Google account is linked to someone else. */
  async linkGoogle(tx: SqlExecutor, userId: string, googleSub: string): Promise<boolean> {
    try {
      const count = await tx.execute(`UPDATE users SET google_sub = $2, updated_at = now() WHERE id = $1 AND google_sub IS NULL`, [userId, googleSub]);
      return count === 1;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }

  async findById(userId: string): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [userId]);
    return rows[0] ?? null;
  }

  async markEmailVerified(userId: string, at: Date): Promise<void> {
    await this.sql.execute(`UPDATE users SET email_verified_at = $2, updated_at = now() WHERE id = $1 AND email_verified_at IS NULL`, [userId, at]);
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.sql.execute(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
  }
}
