// The explain aids' scratch database: migrated, with an ingest service that publishes nothing, a
// plain client for EXPLAIN, and an executor that captures the first statement a repository sends.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import { ConversationRepository } from '../../src/modules/inbox/conversations/conversation.repository.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { BatchIngestRepository } from '../../src/modules/inbox/ingest/batch-ingest.repository.js';
import { ContactMergeRepository } from '../../src/modules/inbox/ingest/contact-merge.repository.js';
import { ContactMergeService } from '../../src/modules/inbox/ingest/contact-merge.service.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import type { SqlExecutor } from '../../src/infra/database/sql-transaction.js';
import { silentLiveEvents } from '../silent-live-events.js';

export interface ExplainDb {
  db: DataSource;
  service: InboxIngestService;
  /** A plain client, for EXPLAIN in a transaction that is rolled back. */
  client: pg.Client;
  /** Runs nothing and answers no rows; keeps the first statement since `reset`. */
  capture: SqlExecutor;
  captured(): { sql: string; params: unknown[] } | undefined;
  reset(): void;
  /** New workspaces, by id. */
  workspaces(count: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function openExplainDb(): Promise<ExplainDb> {
  const name = `inbox_explain_${randomBytes(3).toString('hex')}`;
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  await migrateDatabase(url);
  const db = new DataSource(dataSourceOptions(url, ENTITIES));
  await db.initialize();
  const live = silentLiveEvents();
  const service = new InboxIngestService(
    db,
    new IngestRepository(),
    new BatchIngestRepository(),
    new ContactMergeService(new ContactMergeRepository()),
    new IngestHooks(),
    new InboxEvents(live, new ConversationRepository(db)),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let first: { sql: string; params: unknown[] } | undefined;
  return {
    db,
    service,
    client,
    capture: {
      async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
        first ??= { sql, params };
        return [];
      },
      async execute(sql: string, params: unknown[] = []): Promise<number> {
        first ??= { sql, params };
        return 0;
      },
    },
    captured: () => first,
    reset: () => (first = undefined),
    async workspaces(count) {
      const ids: string[] = [];
      for (let w = 0; w < count; w++) ids.push((await db.query(`INSERT INTO workspaces (name) VALUES ('x') RETURNING id`))[0].id as string);
      return ids;
    },
    async close() {
      await client.end();
      await db.destroy();
      const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
      await admin.connect();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
