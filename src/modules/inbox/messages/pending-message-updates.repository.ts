import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { PendingUpdateKind } from '../entities/pending-message-update.entity.js';

/**
 * Where a channel's update came from: the chat it was sent in (with the other jid form of a 1:1
 * chat's person, when the channel knows it) and who sent it (`from_me`: this number). The update
 * acts only on a message of that chat, and an edit or revoke only as its rule allows
 * (MessageUpdatesService). The workspace's own updates (through the API) have none.
 */
export interface UpdateOrigin {
  chat_jid: string;
  chat_jid_alt: string | null;
  sender_jid: string;
  sender_jid_alt: string | null;
  from_me: boolean;
}

/** What a pending update does, as the updates service wrote it (the row's `kind` and `payload`). */
export type PendingUpdate =
  | { kind: 'reaction'; payload: { sender_jid: string; emoji: string; origin?: UpdateOrigin } }
  | { kind: 'edit'; payload: { content: string; origin?: UpdateOrigin } }
  | { kind: 'revoke'; payload: { sender_jid: string; origin?: UpdateOrigin } };

// One key per target message (by the channel's id, whether stored or not yet): see lockUpdates.
const UPDATES_KEY = `hashtextextended('message-updates:' || $1 || ':' || $2 || ':' || $3, 0)`;

/** A stored message some pending update waits for. */
export interface ReadyTarget {
  workspaceId: string;
  channel: ChannelName;
  targetExternalId: string;
  messageId: string;
}

/**
 * pending_message_updates: reactions, edits and revokes that arrived before their message. The
 * sweeper's reads (`any`, `ready`, `dropExpired`) span every workspace, like the outbox's sweeper;
 * everything else is by workspace.
 */
@Injectable()
export class PendingMessageUpdatesRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** Waits for the message `targetExternalId` of `channel`. */
  async add(workspaceId: string, channel: ChannelName, targetExternalId: string, update: PendingUpdate, tx: SqlExecutor = this.sql): Promise<void> {
    await tx.execute(`INSERT INTO pending_message_updates (workspace_id, channel, target_external_id, kind, payload) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
      workspaceId,
      channel,
      targetExternalId,
      update.kind,
      JSON.stringify(update.payload),
    ]);
  }

  /** Whether any update waits (the sweeper's whole cost while none does). */
  async any(): Promise<boolean> {
    const rows = await this.sql.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM pending_message_updates) AS any`);
    return rows[0]?.any ?? false;
  }

  /** Stored messages that updates wait for, the longest-waiting first. */
  ready(limit: number): Promise<ReadyTarget[]> {
    return this.sql.query<ReadyTarget>(
      `SELECT p.workspace_id AS "workspaceId", p.channel, p.target_external_id AS "targetExternalId", m.id AS "messageId"
         FROM pending_message_updates p
         JOIN messages m ON m.workspace_id = p.workspace_id AND m.channel = p.channel AND m.external_id = p.target_external_id
        GROUP BY p.workspace_id, p.channel, p.target_external_id, m.id
        ORDER BY min(p.id)
        LIMIT $1`,
      [limit],
    );
  }

  /**
   * Serialises the updates of one target (by the channel's id) for the rest of `tx`: a live
   * update and the sweeper applying waiting ones. Without it an update that found its message
   * missing and is queueing (not committed yet) is invisible to a later one, which would apply
   * at once, before it. Issued first in the transaction; its statements after it see what the
   * holder committed. Hash collisions only serialise two unrelated targets.
   */
  lockUpdates(workspaceId: string, channel: ChannelName, targetExternalId: string, tx: SqlExecutor): Promise<unknown> {
    return tx.query(`SELECT pg_advisory_xact_lock(${UPDATES_KEY})`, [workspaceId, channel, targetExternalId]);
  }

  /** `lockUpdates` unless another transaction holds it (then false: it is applying them). */
  async tryLockUpdates(workspaceId: string, channel: ChannelName, targetExternalId: string, tx: SqlExecutor): Promise<boolean> {
    const rows = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${UPDATES_KEY}) AS locked`, [workspaceId, channel, targetExternalId]);
    return rows[0]?.locked === true;
  }

  /**
   * Locks the target message for applying its updates, unless another process holds it (SKIP
   * LOCKED: that process is applying them, or a write of the message is under way; the next sweep
   * takes what is left). Holding the message's row serialises everything that changes it.
   */
  async lockTarget(workspaceId: string, messageId: string, tx: SqlExecutor): Promise<boolean> {
    const rows = await tx.query(`SELECT m.id FROM messages m WHERE m.workspace_id = $1 AND m.id = $2 FOR UPDATE SKIP LOCKED`, [workspaceId, messageId]);
    return rows.length > 0;
  }

  /** Removes and answers the updates waiting for one message, in their order of arrival. */
  async take(workspaceId: string, channel: ChannelName, targetExternalId: string, tx: SqlExecutor): Promise<PendingUpdate[]> {
    const rows = await tx.query<{ id: string; kind: PendingUpdateKind; payload: Record<string, unknown> }>(
      `DELETE FROM pending_message_updates p WHERE p.workspace_id = $1 AND p.channel = $2 AND p.target_external_id = $3
       RETURNING p.id, p.kind, p.payload`,
      [workspaceId, channel, targetExternalId],
    );
    return rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).map((row) => ({ kind: row.kind, payload: row.payload }) as PendingUpdate);
  }

  /** Drops updates waiting longer than `ttlMs` (their message never came); answers their kinds. */
  async dropExpired(ttlMs: number, limit: number): Promise<PendingUpdateKind[]> {
    const rows = await this.sql.query<{ kind: PendingUpdateKind }>(
      `DELETE FROM pending_message_updates WHERE id IN (
         SELECT id FROM pending_message_updates WHERE received_at < now() - $1 * interval '1 millisecond'
          ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING kind`,
      [ttlMs, limit],
    );
    return rows.map((row) => row.kind);
  }
}
