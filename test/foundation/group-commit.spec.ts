import { describe, expect, it } from '@jest/globals';
import { GroupCommit, type GroupCommitOptions, type Settled } from '../../src/infra/batching/group-commit.js';

// The grouping policy alone (the live ingest path's use of it is tested in test/inbox).
describe('GroupCommit', () => {
  function recorder(options: GroupCommitOptions = { maxBatch: 4, maxInFlight: 1 }) {
    const batches: number[][] = [];
    const gates: (() => void)[] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      await new Promise<void>((resolve) => gates.push(resolve));
      return items.map((item): Settled<number> => (item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 10 }));
    }, options);
    const openAll = async (): Promise<void> => {
      while (gates.length) gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { group, batches, openAll };
  }

  it('starts a lone call on an idle service at once, without waiting for a turn of the event loop', () => {
    const { group, batches } = recorder();
    void group.call(1);
    expect(batches).toEqual([[1]]);
  });

  it('groups the calls that come while a batch runs, up to the size cap, and answers each its own result', async () => {
    const { group, batches, openAll } = recorder();
    const results = [1, 2, 3, 4, 5, 6, 7].map((n) => group.call(n));
    await new Promise((resolve) => setImmediate(resolve));
    // The first went alone; the others wait for the slot.
    expect(batches).toEqual([[1]]);
    while (batches.length < 3) await openAll();
    await openAll();
    expect(batches).toEqual([[1], [2, 3, 4, 5], [6, 7]]);
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('starts a batch beside a running one only once enough callers wait; with none running, whatever waits', async () => {
    const { group, batches, openAll } = recorder({ maxBatch: 10, maxInFlight: 3, minBatchWhileBusy: 3 });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const results = [1, 2, 3].map((n) => group.call(n));
    await turn();
    // 1 went alone; two waiting callers are too few for a second batch beside it.
    expect(batches).toEqual([[1]]);
    results.push(group.call(4));
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    results.push(group.call(5));
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    // Once neither runs, the lone caller left starts.
    while (batches.length < 3) await openAll();
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    await openAll();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
  });

  it('bounds the wait for a running batch: after maxWaitWhileBusyMs a few callers start beside it', async () => {
    const { group, batches, openAll } = recorder({ maxBatch: 10, maxInFlight: 3, minBatchWhileBusy: 3, maxWaitWhileBusyMs: 200 });
    const results = [1, 2].map((n) => group.call(n));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([[1]]);
    // The first batch still runs (its gate is shut). The bound's timer starts the batch on the
    // turn after it fires: wait for that turn, not a time.
    while (batches.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([[1], [2]]);
    await openAll();
    expect(await Promise.all(results)).toEqual([10, 20]);
  });

  it('fails only the item that failed', async () => {
    const { group, openAll } = recorder({ maxBatch: 10, maxInFlight: 2 });
    const results = Promise.allSettled([1, -2, 3].map((n) => group.call(n)));
    await new Promise((resolve) => setImmediate(resolve));
    await openAll();
    await openAll();
    const settled = await results;
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain('bad -2');
  });
});
