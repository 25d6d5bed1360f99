// `npm start` must work on a fresh clone without a separate build step, yet stay instant when
// nothing changed: rebuild only when a source file is newer than the last build. Test files that
// start the built service call it too, possibly at the same moment: a lock directory makes one
// of them compile while the others wait (and then find the build fresh).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/src/main.js';
const lock = 'dist/.build-lock';
const STALE_LOCK_MS = 5 * 60_000;

// The Docker image ships the build without its sources: `npm run cli` and `npm run migration:run`
// run what is there.
if (!existsSync('src') && existsSync(stamp)) process.exit(0);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const fresh = () => {
  const inputs = ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'].map((file) => statSync(file).mtimeMs);
  const sources = Math.max(newestMtime('src'), ...inputs);
  return existsSync(stamp) && statSync(stamp).mtimeMs >= sources;
};

function acquireLock() {
  mkdirSync('dist', { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A compiler that died (killed test run) leaves its lock behind: take it after a while.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

if (!fresh()) {
  acquireLock();
  try {
    if (!fresh()) {
      console.error('[build] compiling TypeScript…');
      try {
        execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
      } catch {
        // tsc writes its output even when it reports errors; age the stamp so the next run compiles
        // again instead of starting that output.
        if (existsSync(stamp)) utimesSync(stamp, 0, 0);
        console.error('[build] TypeScript reported errors (above): not starting');
        process.exitCode = 1;
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (process.exitCode === 1) process.exit(1);
}
