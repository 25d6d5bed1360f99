// Development aid: EXPLAIN ANALYZE of the outbox write of a group commit (WRITE_MANY: one event and
// one delivery per message) for BENCH_GROUP scan.chat events over 16 workspaces with one webhook
// each, on a scratch database. `tsc -p bench/ingest-db && node …/explain-outbox.js`
import 'reflect-metadata';
import { OutboxRepository } from '../../src/modules/webhooks/outbox/outbox.repository.js';
import { sqlExecutorOf } from '../../src/infra/database/sql-executor.js';
import { openExplainDb } from './explain-db.js';

const GROUP = Number(process.env.BENCH_GROUP ?? 256);
const { db, client, capture, captured, workspaces: create, close } = await openExplainDb();
const workspaces = await create(16);
for (const id of workspaces)
  await db.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, 'https://hooks.example.com/scan', '{scan.chat}')`, [id]);
const body = Buffer.from(
  JSON.stringify({ event: 'message.inbound', channel: 'scan', content: 'lorem ipsum dolor sit amet '.repeat(3), chat_jid: '491510000000@s.whatsapp.net' }),
);
const events = () =>
  Array.from({ length: GROUP }, (_, i) => ({ workspaceId: workspaces[i % 16]!, event: 'scan.chat', body, sourceKey: null, messageId: null, held: false }));
const repository = new OutboxRepository(db);
// Some history first, so indexes are not empty.
for (let round = 0; round < 20; round++) await repository.writeMany(sqlExecutorOf(db), events());
await db.query('VACUUM ANALYZE');
await repository.writeMany(capture, events());
for (let run = 0; run < 2; run++) {
  await client.query('SET plan_cache_mode = force_generic_plan');
  await client.query('BEGIN');
  const plan = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, WAL) ${captured()!.sql}`, values: captured()!.params });
  await client.query('ROLLBACK');
  if (run === 1) console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
}
await close();
