import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inPipelinedTransaction, inTransaction } from '../../src/infra/database/sql-transaction.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The inbox's transactions run in node-postgres's pipeline mode: statements go out without
 * waiting for the answers before them, and COMMIT may follow the last ones before they are
 * answered. What must hold all the same: all or nothing, the first failure is the one raised,
 * and the pooled connection comes back as it was lent.
 */
describe('inbox transactions (pipelined)', () => {
  let t: TestApp;
  const table = `pipelined_${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp();
    await t.dataSource.query(`CREATE TABLE ${table} (id int PRIMARY KEY, note text NOT NULL)`);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rows = async (): Promise<number[]> => ((await t.dataSource.query(`SELECT id FROM ${table} ORDER BY id`)) as { id: number }[]).map((row) => row.id);

  it('commits every statement issued, including a tail COMMIT overtakes on the wire', async () => {
    const answer = await inPipelinedTransaction(t.dataSource, async (tx) => {
      void tx.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      await tx.query(`INSERT INTO ${table} VALUES (2, 'b')`);
      const tail = tx.query<{ id: number }>(`INSERT INTO ${table} VALUES (3, 'c') RETURNING id`).then((r) => r[0]!.id);
      return { tail };
    });
    expect(answer).toBe(3);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('rolls everything back when the tail fails, and raises its own error', async () => {
    const failure = inPipelinedTransaction(t.dataSource, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (10, 'kept?')`);
      return { tail: tx.query(`INSERT INTO ${table} VALUES (1, 'duplicate')`) };
    });
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('raises the first failing statement, not the aborted transaction after it', async () => {
    const failure = inTransaction(t.dataSource, async (tx) => {
      // Issued together: the second fails only because the first aborted the transaction (25P02).
      const first = tx.query(`INSERT INTO ${table} VALUES (20, NULL)`);
      const second = tx.query(`INSERT INTO ${table} VALUES (21, 'x')`);
      await second;
      await first;
    });
    await expect(failure).rejects.toMatchObject({ code: '23502' });
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('rolls back when the work throws after its statements succeeded', async () => {
    const failure = inTransaction(t.dataSource, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (30, 'z')`);
      throw new Error('changed my mind');
    });
    await expect(failure).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('refuses a statement issued after COMMIT went out, instead of running it outside the transaction', async () => {
    const failure = inPipelinedTransaction(t.dataSource, async (tx) => {
      const tail = tx.query(`INSERT INTO ${table} VALUES (50, 'last')`).then(() => tx.query(`INSERT INTO ${table} VALUES (51, 'too late')`));
      return { tail };
    });
    await expect(failure).rejects.toThrow("statement issued after the transaction's COMMIT");
    // The transaction's own statements committed (the tail's failure came after its COMMIT); 51 never ran.
    expect(await rows()).toEqual([1, 2, 3, 50]);
    await t.dataSource.query(`DELETE FROM ${table} WHERE id = 50`);
  });

  it('hands the connection back idle after a failed transaction, its prepared statements usable', async () => {
    const named = (tx: { query: (sql: string, values?: unknown[], name?: string) => Promise<unknown[]> }, id: number): Promise<unknown[]> =>
      tx.query(`INSERT INTO ${table} VALUES ($1, 'named')`, [id], `pipelined_insert_${process.pid}`);
    // The named statement's first use comes after the failure: its Parse is refused (25P02).
    const failure = inTransaction(t.dataSource, async (tx) => {
      const bad = tx.query(`INSERT INTO ${table} VALUES (1, 'duplicate')`);
      const parsedLate = named(tx, 60);
      await bad;
      await parsedLate;
    });
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    const runner = t.dataSource.createQueryRunner();
    const client = (await runner.connect()) as unknown as { _queryQueue: unknown[]; _sentQueryQueue: unknown[]; readyForQuery: boolean; pipeline: boolean };
    try {
      expect({ queued: client._queryQueue.length, sent: client._sentQueryQueue.length, ready: client.readyForQuery, pipeline: client.pipeline }).toEqual({
        queued: 0,
        sent: 0,
        ready: true,
        pipeline: false,
      });
    } finally {
      await runner.release();
    }
    // Pooled connections reuse the last released first: the same one parses the statement afresh.
    await inTransaction(t.dataSource, (tx) => named(tx, 61));
    expect(await rows()).toEqual([1, 2, 3, 61]);
    await t.dataSource.query(`DELETE FROM ${table} WHERE id = 61`);
  });

  it('hands the connection back out of pipeline mode, for the rest of the service', async () => {
    // Every pooled connection has been through a pipelined transaction by now, or is about to.
    await Promise.all(Array.from({ length: 10 }, (_, i) => inTransaction(t.dataSource, (tx) => tx.query(`SELECT ${i}`))));
    const runner = t.dataSource.createQueryRunner();
    const client = (await runner.connect()) as { pipeline: boolean };
    try {
      expect(client.pipeline).toBe(false);
    } finally {
      await runner.release();
    }
    // TypeORM's own transactions on the same pool still work.
    await t.dataSource.transaction(async (manager) => manager.query(`INSERT INTO ${table} VALUES (40, 'typeorm')`));
    expect(await rows()).toEqual([1, 2, 3, 40]);
  });
});
