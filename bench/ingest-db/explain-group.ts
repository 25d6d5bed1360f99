// Development aid: EXPLAIN ANALYZE of group commit's statements (INGEST_GROUP, MOVE_GROUP) for one
// group of messages to known chats, and of the conversation list, on a scratch database filled by the bulk
// path (16 workspaces, BENCH_CHATS chats over them). `tsc -p bench/ingest-db && node …/explain-group.js`
//   env: BENCH_CHATS (20000), BENCH_GROUP (85 messages, distinct chats)
import 'reflect-metadata';
import type { MessageEntity } from '../../src/modules/inbox/entities/message.entity.js';
import type { ConversationIdentity } from '../../src/modules/inbox/inbox-columns.js';
import { GroupIngestRepository } from '../../src/modules/inbox/ingest/group-ingest.repository.js';
import { normalizeInbound } from '../../src/modules/inbox/ingest/inbound-message.js';
import { buildDataset } from './dataset.js';
import { openExplainDb } from './explain-db.js';

const CHATS = Number(process.env.BENCH_CHATS ?? 20_000);
const GROUP = Number(process.env.BENCH_GROUP ?? 85);
const WORKSPACES = 16;
const { db, service, client, capture, captured, reset, workspaces: create, close } = await openExplainDb();
const workspaces = await create(WORKSPACES);
const workspaceOf = (chatJid: string): string => workspaces[Number(chatJid.slice(4, 13)) % WORKSPACES]!;
const { messages } = buildDataset(CHATS * 3, CHATS);
for (const workspaceId of workspaces)
  await service.ingestBatch(
    workspaceId,
    messages.slice(0, CHATS * 2).filter((m) => workspaceOf(m.chatJid) === workspaceId),
  );
await db.query('VACUUM ANALYZE');
const explain = async (label: string, sql: string, params: unknown[]): Promise<void> => {
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    await client.query(`SET plan_cache_mode = ${mode}`);
    await client.query('BEGIN');
    const plan = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, WAL) ${sql}`, values: params });
    await client.query('ROLLBACK');
    console.log(`--- ${label} ${mode}\n${plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}`);
  }
};
const group = messages.slice(CHATS * 2, CHATS * 2 + GROUP).map((m) => ({ workspaceId: workspaceOf(m.chatJid), message: normalizeInbound(m) }));
await new GroupIngestRepository().ingestKnown(group, capture);
await explain(`group of ${GROUP}`, captured()!.sql, captured()!.params);
// The group's last statement: its conversations moved once each (MOVE_GROUP), from stored messages.
const latest: { id: string; conversation_id: string; timestamp: Date; seq: string; direction: string }[] = await db.query(
  `SELECT id, conversation_id, timestamp, seq::text AS seq, direction FROM messages ORDER BY seq DESC LIMIT $1`,
  [GROUP],
);
const inserted = latest.map((m) => ({
  message: { id: m.id, conversationId: m.conversation_id, timestamp: m.timestamp, seq: m.seq, direction: m.direction } as MessageEntity,
  chat: { id: m.conversation_id } as ConversationIdentity,
  preview: 'preview',
}));
reset();
await new GroupIngestRepository().moveConversations(inserted, capture);
await explain(`move of ${GROUP}`, captured()!.sql, captured()!.params);
const list = `SELECT c.* FROM conversations c WHERE c.workspace_id = $1 AND ($2::uuid IS NULL OR c.assignee_id IS NULL OR c.assignee_id = $2::uuid)
  ORDER BY c.last_message_hour DESC, c.last_message_at DESC, c.last_message_seq DESC, c.id DESC LIMIT $3`;
await explain('conversation list', list, [workspaces[0], null, 50]);
await close();
