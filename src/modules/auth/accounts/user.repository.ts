import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ModifyResult } from '../../../infra/database/queryable.js';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, email, name, password_hash AS "passwordHash", email_verified_at AS "emailVerifiedAt", created_at AS "createdAt"`;
const UNIQUE_VIOLATION = '23505';

/** Users are global (not tenant-owned): methods are keyed by user id or email. */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The new user, or null when the email is taken (also under a concurrent sign-up). */
  async create(email: string, name: string, passwordHash: string): Promise<UserRecord | null> {
    try {
      const rows: UserRecord[] = await this.db.query(
        `INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [email, name, passwordHash],
      );
      return rows[0]!;
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) return null;
      throw error;
    }
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const rows: UserRecord[] = await this.db.query(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }

  async findById(userId: string): Promise<UserRecord | null> {
    const rows: UserRecord[] = await this.db.query(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [userId]);
    return rows[0] ?? null;
  }

  async markEmailVerified(userId: string, at: Date): Promise<void> {
    await this.db.query<ModifyResult<never>>(
      `UPDATE users SET email_verified_at = $2, updated_at = now() WHERE id = $1 AND email_verified_at IS NULL`,
      [userId, at],
    );
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.query<ModifyResult<never>>(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
  }
}
