import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { conversationColumns, messageColumns, previewSql, unprefix } from '../inbox-columns.js';

/**
 * Which message a change acts on:
 * - `channel`: by the channel's id, as a channel's reaction, edit or revoke names it. `waiting`
 *   (the channel's live path) finds it only when no earlier update of it still waits in
 *   pending_message_updates: those go first (the sweeper applies them in arrival order), so a
 *   later one must queue behind them rather than be overwritten by them.
 * - `id`: by our id, for what the workspace does through the API (its own reaction, delete, edit),
 *   and for the sweeper's waiting updates once their message is found.
 * `scope`: a channel's update acts only on a message it may act on (UpdateScope); the
 * workspace's own have none.
 */
export type UpdateTarget = ({ by: 'channel'; channel: ChannelName; externalId: string; waiting: boolean } | { by: 'id'; messageId: string }) & {
  scope?: UpdateScope;
};

/** The ids one person or chat goes by: whole jids (without device), and the phone digits and LID user parts among them. */
export interface JidForms {
  jids: string[];
  phones: string[];
  lids: string[];
}

/**
 * What a channel's update may act on. Its id names the target, but ids are the sending device's
 * choice (unique within a chat at best): without the chat, one chat's reaction, edit or revoke
 * could change another chat's message.
 * - `chat`: the target belongs to the conversation of this chat, by its jid or (one-to-one) by
 *   the person's other form: a 1:1 chat is stored under the jid it first came by, LID or phone,
 *   and its contact (or chat_phone) holds the other.
 * - `rule`: `anyone` in the chat (reactions); `writer`, the target's own author (edits: ours
 *   when `fromMe`, else, in a group, the member who wrote it, by either jid form; in a 1:1 chat
 *   the peer is the only other writer); `side-in-one-to-one` (revokes: in a 1:1 chat only the
 *   target's own side; in a group an admin may delete anyone's).
 */
export interface UpdateScope {
  chat: JidForms;
  rule: 'anyone' | 'writer' | 'side-in-one-to-one';
  fromMe: boolean;
  sender: JidForms;
}

/**
 * What a change did: applied (the row after it), `unchanged` (a repeat), `refused` (the message
 * is not one the update may act on: another chat's, or another person's), `missing` (no such message).
 */
export type UpdateOutcome =
  | { outcome: 'applied'; message: MessageEntity; conversation: ConversationEntity; previousContent: string }
  | { outcome: 'unchanged' }
  | { outcome: 'refused' }
  | { outcome: 'missing' };

/** A change to one message row: `set` and `changed` over alias `m`, with its own parameters from $2. */
interface RowChange {
  set: string;
  /** False for a repeat of the state the row is in: the statement then changes nothing. */
  changed: string;
  params: unknown[];
  /** The conversation's preview, when the message is its latest: an edit's new text, a delete's notice. */
  preview?: string;
}

/** What the conversation list shows for a latest message deleted for everyone (WhatsApp's own words). */
export const DELETED_PREVIEW = 'This message was deleted';

// The user part of a stored jid (no device), and its server.
const USER = (jid: string): string => `split_part(split_part(${jid}, '@', 1), ':', 1)`;
const SERVER = (jid: string): string => `split_part(${jid}, '@', 2)`;

// Whether the target `m` is in the scope's chat and its rule allows the update: a boolean over
// `m`, parameters from $`at`. Looked up by primary key and the contacts' unique indexes.
function scopeSql(scope: UpdateScope | undefined, at: number): { sql: string; params: unknown[] } {
  if (!scope) return { sql: 'true', params: [] };
  const p = (n: number, type: string): string => `$${at + n}::${type}`;
  const params: unknown[] = [scope.chat.jids, scope.chat.phones, scope.chat.lids, scope.fromMe, scope.sender.jids, scope.sender.phones, scope.sender.lids];
  const chat = `(cv.chat_jid = ANY(${p(0, 'text[]')})
      OR (NOT cv.is_group AND (cv.chat_phone = ANY(${p(1, 'text[]')}) OR ct.phone = ANY(${p(1, 'text[]')}) OR ct.lid = ANY(${p(2, 'text[]')}))))`;
  const side = `((m.direction = 'outbound') = ${p(3, 'boolean')})`;
  // A group member's message, written by the sender under either of their jids (the member's
  // contact, when the workspace has one, pairs them).
  const writtenBy = `(regexp_replace(m.sender_jid, ':[0-9]+@', '@') = ANY(${p(4, 'text[]')})
      OR EXISTS (SELECT 1 FROM contacts sc WHERE sc.workspace_id = $1 AND (
           (${SERVER('m.sender_jid')} = 's.whatsapp.net' AND sc.phone = ${USER('m.sender_jid')} AND sc.lid = ANY(${p(6, 'text[]')}))
        OR (${SERVER('m.sender_jid')} = 'lid' AND sc.lid = ${USER('m.sender_jid')} AND sc.phone = ANY(${p(5, 'text[]')})))))`;
  const rule = {
    anyone: 'true',
    writer: `${side} AND (NOT cv.is_group OR ${p(3, 'boolean')} OR ${writtenBy})`,
    'side-in-one-to-one': `(cv.is_group OR ${side})`,
  }[scope.rule];
  // Only the parameters the rule names (Postgres refuses one the statement does not use).
  const used = { anyone: 3, 'side-in-one-to-one': 4, writer: 7 }[scope.rule];
  return {
    sql: `EXISTS (SELECT 1 FROM conversations cv LEFT JOIN contacts ct ON ct.workspace_id = cv.workspace_id AND ct.id = cv.contact_id
                   WHERE cv.workspace_id = $1 AND cv.id = m.conversation_id AND ${chat} AND ${rule})`,
    params: params.slice(0, used),
  };
}

// The target's id and whether its scope allows the change (`ok`), first parameter the workspace;
// `at` is the number of the first target parameter.
function targetSql(target: UpdateTarget, at: number): { sql: string; params: unknown[] } {
  if (target.by === 'id') {
    const scope = scopeSql(target.scope, at + 1);
    return {
      sql: `SELECT m.id, m.content AS previous, ${scope.sql} AS ok FROM messages m WHERE m.workspace_id = $1 AND m.id = $${at}::uuid`,
      params: [target.messageId, ...scope.params],
    };
  }
  const waiting = target.waiting
    ? `AND NOT EXISTS (SELECT 1 FROM pending_message_updates p
                        WHERE p.workspace_id = $1 AND p.channel = $${at + 1} AND p.target_external_id = $${at})`
    : '';
  const scope = scopeSql(target.scope, at + 2);
  return {
    sql: `SELECT m.id, m.content AS previous, ${scope.sql} AS ok FROM messages m WHERE m.workspace_id = $1 AND m.channel = $${at + 1} AND m.external_id = $${at} ${waiting}`,
    params: [target.externalId, target.channel, ...scope.params],
  };
}

// The conversation beside the changed message; an edit of its latest message moves its preview
// (the one whose seq the conversation holds: a timestamp compare would also take an older message
// of the same second).
const conversationSql = (preview: string | undefined): string =>
  preview
    ? `UPDATE conversations cv SET
         last_message_preview = CASE WHEN m.seq = cv.last_message_seq THEN ${preview} ELSE cv.last_message_preview END,
         updated_at = now()
        FROM m WHERE cv.workspace_id = $1 AND cv.id = m.conversation_id
       RETURNING cv.*`
    : `SELECT cv.* FROM conversations cv JOIN m ON cv.id = m.conversation_id WHERE cv.workspace_id = $1`;

// One statement: the target, the change (none for a repeat), the conversation, and whether the
// target exists at all (a repeat answers `unchanged`, a missing target `missing`).
function changeSql(change: RowChange, target: UpdateTarget): { sql: string; params: unknown[] } {
  const params: unknown[] = [null, ...change.params];
  const t = targetSql(target, params.length + 1);
  params.push(...t.params);
  const sql = `WITH t AS (${t.sql}),
       m AS (
         UPDATE messages m SET ${change.set}
           FROM t WHERE m.workspace_id = $1 AND m.id = t.id AND t.ok AND (${change.changed})
         RETURNING m.*
       ), c AS (${conversationSql(change.preview)})
       SELECT (SELECT count(*) FROM t)::int AS found, (SELECT count(*) FROM t WHERE t.ok)::int AS allowed,
              (SELECT t.previous FROM t LIMIT 1) AS previous_content,
              ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
         FROM (SELECT 1) one LEFT JOIN m ON true LEFT JOIN c ON c.id = m.conversation_id`;
  return { sql, params };
}

// `sender`'s entry replaced by the new one (order of the others kept), or removed for ''.
const REACTIONS = `COALESCE((SELECT jsonb_agg(r.value ORDER BY r.n) FROM jsonb_array_elements(m.reactions) WITH ORDINALITY r(value, n)
                              WHERE r.value->>'sender_jid' IS DISTINCT FROM $2::text), '[]'::jsonb)
                   || CASE WHEN $3::text = '' THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object('emoji', $3::text, 'sender_jid', $2::text)) END`;
const REACTION_CHANGED = `CASE WHEN $3::text = '' THEN m.reactions @> jsonb_build_array(jsonb_build_object('sender_jid', $2::text))
                               ELSE NOT m.reactions @> jsonb_build_array(jsonb_build_object('emoji', $3::text, 'sender_jid', $2::text)) END`;

/**
 * The message row changes that are not new messages: reactions, edits, deletes for everyone
 * (MessageUpdatesService). Each is one statement, on `tx` when the change's hooks or the pending
 * sweeper write beside it.
 */
@Injectable()
export class MessageUpdatesRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  /** `senderJid`'s reaction set to `emoji` (one per person), or taken back with ''. */
  react(workspaceId: string, target: UpdateTarget, senderJid: string, emoji: string, tx: SqlExecutor = this.sql): Promise<UpdateOutcome> {
    return this.change(workspaceId, target, { set: `reactions = ${REACTIONS}`, changed: REACTION_CHANGED, params: [senderJid, emoji] }, tx);
  }

  /** Deleted for everyone: the time is kept, the content too (the workspace still reads it). */
  markDeleted(workspaceId: string, target: UpdateTarget, tx: SqlExecutor = this.sql): Promise<UpdateOutcome> {
    return this.change(workspaceId, target, { set: 'deleted_at = now()', changed: 'm.deleted_at IS NULL', params: [], preview: `'${DELETED_PREVIEW}'` }, tx);
  }

  /** The new text (or caption), marked edited; the preview follows when it is the latest message. */
  edit(workspaceId: string, target: UpdateTarget, content: string, tx: SqlExecutor = this.sql): Promise<UpdateOutcome> {
    return this.change(
      workspaceId,
      target,
      { set: 'content = $2, edited_at = now()', changed: 'm.edited_at IS NULL OR m.content IS DISTINCT FROM $2', params: [content], preview: previewSql('m') },
      tx,
    );
  }

  /** A message by our id with its conversation; null when the workspace has none such. */
  async find(workspaceId: string, messageId: string, tx: SqlExecutor = this.sql): Promise<{ message: MessageEntity; conversation: ConversationEntity } | null> {
    const rows = await tx.query<Record<string, unknown>>(
      `SELECT ${messageColumns('m', 'm_')}, ${conversationColumns('c', 'c_')}
         FROM messages m JOIN conversations c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
        WHERE m.workspace_id = $1 AND m.id = $2::uuid`,
      [workspaceId, messageId],
    );
    const row = rows[0];
    return row ? { message: unprefix<MessageEntity>(row, 'm_'), conversation: unprefix<ConversationEntity>(row, 'c_') } : null;
  }

  private async change(workspaceId: string, target: UpdateTarget, change: RowChange, tx: SqlExecutor): Promise<UpdateOutcome> {
    const { sql, params } = changeSql(change, target);
    params[0] = workspaceId;
    const [row] = await tx.query<Record<string, unknown> & { found: number; allowed: number; m_id: string | null; previous_content: string | null }>(
      sql,
      params,
    );
    if (row?.m_id) {
      // The text the target had before this statement (an edit's `previous_content`).
      const previousContent = row.previous_content ?? '';
      return { outcome: 'applied', message: unprefix<MessageEntity>(row, 'm_'), conversation: unprefix<ConversationEntity>(row, 'c_'), previousContent };
    }
    if (!row || row.found === 0) return { outcome: 'missing' };
    return { outcome: row.allowed > 0 ? 'unchanged' : 'refused' };
  }
}
