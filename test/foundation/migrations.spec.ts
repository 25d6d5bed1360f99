import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { MIGRATIONS } from '../../src/infra/database/migrations/index.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import { databasePrefix, databaseUrl, dropTestDatabase, testRunId, withAdminClient } from '../support/test-env.js';

// Names under the run's prefix, so the global teardown drops them even if this file crashes.
const created: string[] = [];
function freshDatabaseName(): string {
  const name = `${databasePrefix(testRunId())}_mig_${randomBytes(4).toString('hex')}`;
  created.push(name);
  return name;
}

async function databaseExists(name: string): Promise<boolean> {
  return withAdminClient(async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  });
}

async function withDataSource<T>(url: string, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(dataSourceOptions(url, ENTITIES, { extra: { max: 1 } }));
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

afterAll(async () => {
  for (const name of created) await dropTestDatabase(name);
});

describe('migrateDatabase', () => {
  it('creates a missing database, applies every migration, and applies nothing the second time', async () => {
    const name = freshDatabaseName();
    expect(await databaseExists(name)).toBe(false);

    const first = await migrateDatabase(databaseUrl(name));
    expect(await databaseExists(name)).toBe(true);
    expect(first).toHaveLength(MIGRATIONS.length);

    const second = await migrateDatabase(databaseUrl(name));
    expect(second).toEqual([]);

    const tables = await withDataSource(databaseUrl(name), (ds) => ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`));
    expect((tables as { table_name: string }[]).map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['migrations', 'users', 'workspaces', 'workspace_members', 'api_keys', 'sessions']),
    );
  });

  it('applies each migration exactly once when two processes start together (api + worker)', async () => {
    const url = databaseUrl(freshDatabaseName());
    const [a, b] = await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
    expect([...a, ...b].sort()).toEqual([...new Set([...a, ...b])].sort());
    expect(a.length + b.length).toBe(MIGRATIONS.length);
  });

  it('leaves no drift: the entities describe exactly the schema the migrations build', async () => {
    const url = databaseUrl(freshDatabaseName());
    await migrateDatabase(url);
    const pending = await withDataSource(url, async (ds) => (await ds.driver.createSchemaBuilder().log()).upQueries);
    // On failure this lists the SQL a new migration needs (or what a migration has that no entity declares).
    expect(pending.map((q) => q.query)).toEqual([]);
  });
});
