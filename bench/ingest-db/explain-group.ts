// Development aid: EXPLAIN ANALYZE of group commit's statement (INGEST_GROUP) for one group of
// messages to known chats, and of the conversation list, on a scratch database filled by the bulk
// path (16 workspaces, BENCH_CHATS chats over them). `tsc -p bench/ingest-db && node …/explain-group.js`
//   env: BENCH_CHATS (20000), BENCH_GROUP (85 messages, distinct chats)
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import type { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { ConversationRepository } from '../../src/modules/inbox/conversations/conversation.repository.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { BatchIngestRepository } from '../../src/modules/inbox/ingest/batch-ingest.repository.js';
import { ContactMergeRepository } from '../../src/modules/inbox/ingest/contact-merge.repository.js';
import { ContactMergeService } from '../../src/modules/inbox/ingest/contact-merge.service.js';
import { GroupIngestRepository } from '../../src/modules/inbox/ingest/group-ingest.repository.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { normalizeInbound } from '../../src/modules/inbox/ingest/inbound-message.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import type { SqlExecutor } from '../../src/modules/inbox/ingest/sql-transaction.js';
import { buildDataset } from './dataset.js';

const CHATS = Number(process.env.BENCH_CHATS ?? 20_000);
const GROUP = Number(process.env.BENCH_GROUP ?? 85);
const WORKSPACES = 16;
const name = `inbox_explain_${randomBytes(3).toString('hex')}`;
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
await migrateDatabase(url);
const db = new DataSource(dataSourceOptions(url, ENTITIES));
await db.initialize();
const noop = async (): Promise<void> => undefined;
const live = { publish: noop, publishAll: noop } as unknown as LiveEventsService;
const service = new InboxIngestService(db, new IngestRepository(), new BatchIngestRepository(), new ContactMergeService(new ContactMergeRepository()), new IngestHooks(), new InboxEvents(live, new ConversationRepository(db)));
const workspaces: string[] = [];
for (let w = 0; w < WORKSPACES; w++) workspaces.push((await db.query(`INSERT INTO workspaces (name) VALUES ('x') RETURNING id`))[0].id as string);
const workspaceOf = (chatJid: string): string => workspaces[Number(chatJid.slice(4, 13)) % WORKSPACES]!;
const { messages } = buildDataset(CHATS * 3, CHATS);
for (const workspaceId of workspaces) await service.ingestBatch(workspaceId, messages.slice(0, CHATS * 2).filter((m) => workspaceOf(m.chatJid) === workspaceId));
await db.query('VACUUM ANALYZE');
const client = new pg.Client({ connectionString: url });
await client.connect();
let captured: { sql: string; params: unknown[] } | undefined;
const capture: SqlExecutor = {
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    captured ??= { sql, params };
    return [];
  },
};
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
await explain(`group of ${GROUP}`, captured!.sql, captured!.params);
const list = `SELECT c.* FROM conversations c WHERE c.workspace_id = $1 AND ($2::uuid IS NULL OR c.assignee_id IS NULL OR c.assignee_id = $2::uuid)
  ORDER BY c.last_message_at DESC, c.last_message_seq DESC, c.id DESC LIMIT $3`;
await explain('conversation list', list, [workspaces[0], null, 50]);
await client.end();
await db.destroy();
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
