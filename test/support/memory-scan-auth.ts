import type { ScanAuthStorage, ScanKeyWrite } from '../../src/modules/chat/driver/scan-driver.port.js';

/**
 * A `ScanAuthStorage` in memory, for driver tests that are about the socket, not Postgres (the
 * Postgres store has its own tests). `failWith` makes every later write reject, as a lost
 * database would.
 */
export class MemoryScanAuth implements ScanAuthStorage {
  readonly rows = new Map<string, string>();
  readonly reads: { type: string; ids: readonly string[] }[] = [];
  readonly writes: (readonly ScanKeyWrite[])[] = [];
  failWith: Error | null = null;
  /** While set, writes wait for it: a slow database. */
  gate: Promise<void> | null = null;

  readCreds(): Promise<string | null> {
    return Promise.resolve(this.rows.get('creds/creds') ?? null);
  }

  writeCreds(value: string): Promise<void> {
    return this.writeKeys([{ type: 'creds', id: 'creds', value }]);
  }

  readKeys(type: string, ids: readonly string[]): Promise<Map<string, string>> {
    this.reads.push({ type, ids });
    const found = new Map<string, string>();
    for (const id of ids) {
      const value = this.rows.get(`${type}/${id}`);
      if (value !== undefined) found.set(id, value);
    }
    return Promise.resolve(found);
  }

  async writeKeys(writes: readonly ScanKeyWrite[]): Promise<void> {
    if (this.gate) await this.gate;
    if (this.failWith) throw this.failWith;
    this.writes.push(writes);
    for (const w of writes) {
      if (w.value === null) this.rows.delete(`${w.type}/${w.id}`);
      else this.rows.set(`${w.type}/${w.id}`, w.value);
    }
  }

  clear(): Promise<void> {
    this.rows.clear();
    return Promise.resolve();
  }
}
