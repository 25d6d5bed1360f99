// The (operation, status) pairs the integration suite observed, and the check that each is declared
// in the OpenAPI document. The harness (status-recorder.ts) appends one JSON line per response to a
// file per Jest worker; global-teardown.mjs runs the check once all test files have finished.
// (Plain JS: global-teardown loads it outside Jest's module mapping.)
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the observations of one `npm test` run are written. */
export function observedStatusesDir(runId) {
  return join(tmpdir(), 'inbox-observed-statuses', runId);
}

/** Every observation of a run: `{method, route, status, declared}`. */
export function readObservations(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ndjson'))
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** The pairs observed but not declared, each once, sorted: `POST /api/invites 409`. */
export function undeclaredPairs(observations) {
  const pairs = new Set(observations.filter((o) => !o.declared).map((o) => `${o.method} ${o.route} ${o.status}`));
  return [...pairs].sort();
}

/** Throws, listing each undeclared pair, when the run observed one; removes the run's files. */
export function checkObservedStatuses(runId) {
  const dir = observedStatusesDir(runId);
  const undeclared = undeclaredPairs(readObservations(dir));
  rmSync(dir, { recursive: true, force: true });
  if (undeclared.length) {
    throw new Error(
      `The tests observed ${undeclared.length} (operation, status) pair(s) that the OpenAPI document does not declare.\n` +
        'Declare each on its route (see CONTRIBUTING.md, "Declaring statuses"):\n' +
        undeclared.map((pair) => `  ${pair}`).join('\n'),
    );
  }
}
