// Development aid: EXPLAIN ANALYZE of the live ingest statement (custom and generic plans) on a
// scratch database filled by the bulk path. `tsc -p bench/ingest-db && node …/explain.js`
import 'reflect-metadata';
import { normalizeInbound } from '../../src/modules/inbox/ingest/inbound-message.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import { buildDataset } from './dataset.js';
import { openExplainDb } from './explain-db.js';

const { db, service, client, capture, captured, reset, workspaces, close } = await openExplainDb();
const [ws] = (await workspaces(1)) as [string];
const { messages } = buildDataset(20_000, 200);
await service.ingestBatch(ws, messages.slice(0, 14_000));
for (const message of messages.slice(14_000, 19_000)) await service.ingest(ws, message);
await db.query('ANALYZE');
// The first statement captured is the live ingest statement (returning no rows sends the
// repository on to its fallbacks, which are not what this explains).
for (const [label, index] of [
  ['repeat', 5],
  ['new', 19_500],
] as const) {
  reset();
  await new IngestRepository().ingest(ws, normalizeInbound(messages[index]!), capture).catch(() => undefined);
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    await client.query(`SET plan_cache_mode = ${mode}`);
    await client.query('BEGIN');
    await client.query({ name: `p_${label}_${mode}`, text: captured()!.sql, values: captured()!.params });
    const plan = await client.query({ text: `EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) ${captured()!.sql}`, values: captured()!.params });
    await client.query('ROLLBACK');
    const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    console.log(`--- ${label} ${mode}\n${lines.filter((l: string) => /Scan|Time|Join|Loop|Update on|Insert on|Buffers/.test(l)).join('\n')}`);
  }
}
await close();
