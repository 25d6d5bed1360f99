import type pg from 'pg';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';

const COLUMNS = [
  'workspace_id',
  'conversation_id',
  'channel',
  'external_id',
  'direction',
  'sender_jid',
  'sender_name',
  'message_type',
  'content',
  'status',
  'timestamp',
];
const ROWS_PER_INSERT = 1000;

/**
 * The physical limit: the same rows, into the same table and indexes, as plain multi-row
 * `INSERT … VALUES` statements of 1,000 rows over one connection, with the conversations created
 * beforehand (outside the timing) and nothing else: no upserts, no conflicts, no aggregates.
 */
export async function runBaseline(client: pg.PoolClient, workspaceId: string, messages: InboundMessage[]): Promise<number> {
  const chats = [...new Set(messages.map((m) => m.chatJid))];
  const { rows } = await client.query<{ id: string; chat_jid: string }>(
    `INSERT INTO conversations (workspace_id, channel, chat_jid) SELECT $1, 'scan', j FROM unnest($2::text[]) j RETURNING id, chat_jid`,
    [workspaceId, chats],
  );
  const conversationOf = new Map(rows.map((row) => [row.chat_jid, row.id]));

  const started = performance.now();
  for (let start = 0; start < messages.length; start += ROWS_PER_INSERT) {
    const chunk = messages.slice(start, start + ROWS_PER_INSERT);
    const params: unknown[] = [];
    const tuples = chunk.map((m) => {
      const base = params.length;
      params.push(
        workspaceId,
        conversationOf.get(m.chatJid),
        m.channel,
        m.externalId,
        m.direction,
        m.senderJid,
        m.senderName,
        'text',
        m.content,
        m.direction === 'inbound' ? 'delivered' : 'sent',
        m.timestamp,
      );
      return `(${COLUMNS.map((_, i) => `$${base + i + 1}`).join(', ')})`;
    });
    await client.query(`INSERT INTO messages (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
  return performance.now() - started;
}
