import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTypeormTransaction, type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { Role } from '../entities/workspace-member.entity.js';

export interface InviteRecord {
  id: string;
  workspaceId: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export interface InviteForToken extends InviteRecord {
  workspaceName: string;
  acceptedAt: Date | null;
}

const COLUMNS = `i.id, i.workspace_id AS "workspaceId", i.email, i.role, i.created_at AS "createdAt", i.expires_at AS "expiresAt"`;

@Injectable()
export class InviteRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /**
   * A new invite. A pending one for the same address is replaced in the same statement (new id,
   * token, role and expiry), on the partial unique index `invites_pending_email_uq`: concurrent
   * re-invites queue on that index, so exactly one pending invite remains and only the link of
   * the last one to commit works.
   */
  async create(
    workspaceId: string,
    invite: { email: string; role: Role; tokenHash: string; invitedBy: string | null; expiresAt: Date },
  ): Promise<InviteRecord> {
    const rows = await this.sql.query<InviteRecord>(
      `INSERT INTO invites AS i (workspace_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (workspace_id, lower(email)) WHERE accepted_at IS NULL
       DO UPDATE SET id = EXCLUDED.id, email = EXCLUDED.email, role = EXCLUDED.role, token_hash = EXCLUDED.token_hash,
                     invited_by = EXCLUDED.invited_by, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       RETURNING ${COLUMNS}`,
      [workspaceId, invite.email, invite.role, invite.tokenHash, invite.invitedBy, invite.expiresAt],
    );
    return rows[0]!;
  }

  /** Invites that can still be accepted, newest first. */
  listPending(workspaceId: string, now: Date): Promise<InviteRecord[]> {
    return this.sql.query(
      `SELECT ${COLUMNS} FROM invites i
        WHERE i.workspace_id = $1 AND i.accepted_at IS NULL AND i.expires_at > $2
        ORDER BY i.created_at DESC`,
      [workspaceId, now],
    );
  }

  /** Revokes an unaccepted invite; false when there is none with this id in the workspace. */
  async deletePending(workspaceId: string, inviteId: string): Promise<boolean> {
    const count = await this.sql.execute(`DELETE FROM invites WHERE workspace_id = $1 AND id = $2 AND accepted_at IS NULL`, [workspaceId, inviteId]);
    return count > 0;
  }

  /**
   * The invite a link points to. Not scoped to a workspace: the token is what identifies it, and
   * the person accepting is not a member yet.
   */
  async findByTokenHash(tokenHash: string): Promise<InviteForToken | null> {
    const rows = await this.sql.query<InviteForToken>(
      `SELECT ${COLUMNS}, i.accepted_at AS "acceptedAt", w.name AS "workspaceName"
         FROM invites i JOIN workspaces w ON w.id = i.workspace_id
        WHERE i.token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /**
   * Marks the invite accepted and adds the user, in one transaction. Null when the invite was
   * accepted or revoked in the meantime (single use even under concurrent clicks). A user who is
   * already a member keeps their role.
   */
  accept(workspaceId: string, inviteId: string, userId: string, now: Date): Promise<Role | null> {
    return inTypeormTransaction(this.db, async (tx) => {
      const claimed = await tx.query<{ role: Role }>(
        `UPDATE invites SET accepted_at = $3 WHERE workspace_id = $1 AND id = $2 AND accepted_at IS NULL AND expires_at > $3 RETURNING role`,
        [workspaceId, inviteId, now],
      );
      const invite = claimed[0];
      if (!invite) return null;
      await tx.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (workspace_id, user_id) DO NOTHING`, [
        workspaceId,
        userId,
        invite.role,
      ]);
      const rows = await tx.query<{ role: Role }>(`SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
      return rows[0]!.role;
    });
  }
}
