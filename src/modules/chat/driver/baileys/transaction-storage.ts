import { AsyncLocalStorage } from 'node:async_hooks';

/** The part of a Baileys socket's key store that reads its transaction storage synchronously. */
export interface TransactionalKeys {
  isInTransaction?: () => boolean;
}

/**
 * Keeps the AsyncLocalStorage Baileys makes for one socket's key transactions enabled only while
 * one of its transactions runs, and disables it for good once the socket is gone. Answers false
 * when the storage cannot be found (a Baileys release that no longer reads it as rc14 does).
 *
 * Why: Baileys 7 (`addTransactionCapability`, once per socket) creates an AsyncLocalStorage and
 * never disables it (upstream issue WhiskeySockets/Baileys#2806, unfixed in rc14). Before Node 24,
 * every enabled storage stays in a process-wide list that Node walks at every async resource it
 * creates, writing one property per storage on each new promise. So every `await` of a worker
 * costs in proportion to the sockets it holds, plus every socket it has ever opened (each
 * reconnect adds one), and resuming hundreds of sessions is quadratic: profiled at 200 sessions,
 * half the worker's CPU went to that propagation and the garbage it makes.
 *
 * How: `keys.isInTransaction()` is Baileys' one public call that reads the storage, synchronously
 * (`txStorage.getStore()`); `getStore` is wrapped for the duration of that call only, so no other
 * code runs while it is wrapped. The storage's own `run` (this instance only) then counts the
 * transactions in flight and disables the storage when the last one has finished: outside `run`
 * the storage holds nothing Baileys reads (the context exists only inside a transaction), and
 * the next `run` enables it again.
 */
export function releaseTransactionStorage(keys: TransactionalKeys | undefined): { found: boolean; dispose: () => void } {
  const storage = find(keys);
  if (!storage) return { found: false, dispose: () => undefined };
  const run = storage.run;
  let active = 0;
  let disposed = false;
  const finished = (): void => {
    active -= 1;
    if (active === 0) storage.disable();
  };
  storage.run = function <R, A extends unknown[]>(this: AsyncLocalStorage<unknown>, store: unknown, callback: (...args: A) => R, ...args: A): R {
    if (disposed) return run.call(this, store, callback, ...args) as R;
    active += 1;
    let result: R;
    try {
      result = run.call(this, store, callback, ...args) as R;
    } catch (error) {
      finished();
      throw error;
    }
    // A transaction is an async function: its storage is in use until the promise settles.
    if (typeof (result as { then?: unknown } | null)?.then === 'function') return Promise.resolve(result).finally(finished) as R;
    finished();
    return result;
  };
  return {
    found: true,
    dispose: () => {
      disposed = true;
      storage.run = run;
      storage.disable();
    },
  };
}

function find(keys: TransactionalKeys | undefined): AsyncLocalStorage<unknown> | undefined {
  if (typeof keys?.isInTransaction !== 'function') return undefined;
  const prototype = AsyncLocalStorage.prototype;
  const getStore = prototype.getStore;
  let found: AsyncLocalStorage<unknown> | undefined;
  prototype.getStore = function (this: AsyncLocalStorage<unknown>) {
    // The instance Baileys calls getStore on is the one to find: keeping `this` is the point.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    found ??= this;
    return getStore.call(this);
  };
  try {
    keys.isInTransaction();
  } finally {
    prototype.getStore = getStore;
  }
  return found;
}
