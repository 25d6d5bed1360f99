import { rmSync } from 'node:fs';

/**
 * Everything the fault suite starts (processes, the private Postgres, temp dirs) registers its
 * undo here. `runAll` runs them in reverse order from afterAll; should the test process end any
 * other way (a crash, Ctrl-C, Jest's force exit), the synchronous parts run from `exit`, so no
 * server or directory outlives the suite.
 */
interface Undo {
  name: string;
  /** Runs from afterAll. */
  async: () => Promise<void>;
  /** Runs from the process's `exit` event: synchronous only (kill, rmSync, execFileSync). */
  sync: () => void;
}

const undos: Undo[] = [];
let hooked = false;

export function onCleanup(name: string, async: () => Promise<void>, sync: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const undo of undos.splice(0).reverse()) {
        try {
          undo.sync();
        } catch {
          // best effort: the next undo still runs
        }
      }
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  }
  const undo = { name, async, sync };
  undos.push(undo);
  return () => {
    const index = undos.indexOf(undo);
    if (index >= 0) undos.splice(index, 1);
  };
}

/** Runs every registered undo, newest first; reports failures without stopping. */
export async function cleanupAll(): Promise<string[]> {
  const problems: string[] = [];
  for (const undo of undos.splice(0).reverse()) {
    try {
      await undo.async();
    } catch (error) {
      problems.push(`${undo.name}: ${(error as Error).message}`);
      try {
        undo.sync();
      } catch {
        // already reported
      }
    }
  }
  return problems;
}

export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true });
}
