// Development aid: EXPLAIN ANALYZE of the live ingest statement (custom and generic plans) on a
// scratch database filled by the bulk path. `tsc -p bench/ingest-db && node …/explain.js`
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
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { normalizeInbound } from '../../src/modules/inbox/ingest/inbound-message.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import type { SqlExecutor } from '../../src/modules/inbox/ingest/sql-transaction.js';
import { buildDataset } from './dataset.js';

const name = `inbox_explain_${randomBytes(3).toString('hex')}`;
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
await migrateDatabase(url);
const db = new DataSource(dataSourceOptions(url, ENTITIES));
await db.initialize();
const noop = async (): Promise<void> => undefined;
const live = { publish: noop, publishAll: noop } as unknown as LiveEventsService;
const service = new InboxIngestService(db, new IngestRepository(), new BatchIngestRepository(), new ContactMergeService(new ContactMergeRepository()), new IngestHooks(), new InboxEvents(live, new ConversationRepository(db)));
const ws = (await db.query(`INSERT INTO workspaces (name) VALUES ('x') RETURNING id`))[0].id as string;
const { messages } = buildDataset(20_000, 200);
await service.ingestBatch(ws, messages.slice(0, 14_000));
for (const message of messages.slice(14_000, 19_000)) await service.ingest(ws, message);
await db.query('ANALYZE');
const client = new pg.Client({ connectionString: url });
await client.connect();
let captured: { sql: string; params: unknown[] } | undefined;
// Keeps the first statement: the live ingest statement (returning no rows sends the repository on
// to its fallbacks, which are not what this explains).
const capture: SqlExecutor = {
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    captured ??= { sql, params };
    return [];
  },
};
for (const [label, index] of [['repeat', 5], ['new', 19_500]] as const) {
  captured = undefined;
  await new IngestRepository().ingest(ws, normalizeInbound(messages[index]!), capture).catch(() => undefined);
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    await client.query(`SET plan_cache_mode = ${mode}`);
    await client.query('BEGIN');
    await client.query({ name: `p_${label}_${mode}`, text: captured!.sql, values: captured!.params });
    const plan = await client.query({ text: `EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) ${captured!.sql}`, values: captured!.params });
    await client.query('ROLLBACK');
    const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    console.log(`--- ${label} ${mode}\n${lines.filter((l: string) => /Scan|Time|Join|Loop|Update on|Insert on|Buffers/.test(l)).join('\n')}`);
  }
}
await client.end();
await db.destroy();
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
