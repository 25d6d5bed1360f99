// `npm start` must work on a fresh clone without a separate build step, yet stay instant when
// nothing changed: rebuild only when a source file is newer than the last build.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/src/main.js';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const inputs = ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'].map((file) => statSync(file).mtimeMs);
const sources = Math.max(newestMtime('src'), ...inputs);
if (!existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  console.error('[build] compiling TypeScript…');
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  } catch {
    // tsc writes its output even when it reports errors; age the stamp so the next run compiles
    // again instead of starting that output.
    if (existsSync(stamp)) utimesSync(stamp, 0, 0);
    console.error('[build] TypeScript reported errors (above): not starting');
    process.exit(1);
  }
}
