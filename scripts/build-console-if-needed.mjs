// The Console (console/, a Vite app) is built into console/dist, which is never committed: build it
// when it is missing or older than its sources, so `npm start` and `npm test` work on a fresh
// clone and stay instant when nothing changed. Run by `prestart` (after build-if-needed.mjs, which
// compiles the service) and by the test run's global setup (the browser tests need the build).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'console/dist/index.html');
const inputs = ['console/src', 'console/public', 'console/index.html', 'console/vite.config.ts', 'console/tsconfig.json', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function consoleIsStale() {
  if (!existsSync(stamp)) return true;
  const sources = Math.max(...inputs.map((input) => newestMtime(join(root, input))));
  return statSync(stamp).mtimeMs < sources;
}

/** Builds the Console when needed; throws (after Vite printed why) when the build fails. */
export function buildConsoleIfNeeded() {
  if (!consoleIsStale()) return false;
  console.error('[build] building the Console (Vite)…');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(root, 'console/vite.config.ts'), '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    buildConsoleIfNeeded();
  } catch {
    console.error('[build] the Console did not build (above)');
    process.exit(1);
  }
}
