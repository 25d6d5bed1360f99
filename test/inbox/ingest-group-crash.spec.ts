// Group commit across a real crash: a process ingesting waves of messages (one group each) is
// killed with SIGKILL while a group's transaction is open. Every message it acknowledged is
// stored; the open group left nothing behind; the channel's redelivery of what was not
// acknowledged stores each message exactly once.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CHILD = resolve(import.meta.dirname, 'support/group-commit-child.mjs');
const WAVES = 6;
const PER_WAVE = 15;

describe('inbox ingest: group commit and a killed process', () => {
  let t: TestApp;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    t = await createTestApp();
  }, 180_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await t?.close();
  });

  it('loses nothing it acknowledged, and half-writes no group', async () => {
    const ws = await t.factories.workspace();
    const prefix = `crash-${Date.now()}`;
    let output = '';
    child = spawn(process.execPath, [CHILD, t.config.databaseUrl, ws.id, prefix, String(WAVES), String(PER_WAVE)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((done) => child!.on('exit', () => done()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Kill it inside the transaction of the third wave's group, once two waves are acknowledged.
    await new Promise<void>((done, fail) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const acks = output.split('\n').filter((line) => line.startsWith('ack ')).length;
        if (acks >= 2 * PER_WAVE && output.slice(output.lastIndexOf('ack ')).includes('in-transaction')) {
          child!.kill('SIGKILL');
          done();
        }
      });
      child!.on('exit', () => fail(new Error(`the child ended before it was killed:\n${output}`)));
    });
    await exited;
    expect(child.signalCode).toBe('SIGKILL');

    const acked = output
      .split('\n')
      .filter((line) => line.startsWith('ack '))
      .map((line) => line.slice(4));
    const stored = ((await t.dataSource.query('SELECT external_id FROM messages WHERE workspace_id = $1', [ws.id])) as { external_id: string }[]).map(
      (row) => row.external_id,
    );
    expect(acked.length).toBeGreaterThanOrEqual(2 * PER_WAVE);
    expect(stored).toEqual(expect.arrayContaining(acked));
    // Whole groups only: the open one rolled back (a group may have committed just before its
    // acknowledgements were printed; then all of it is there).
    const waves = new Set(stored.map((id) => id.split('-').at(-2)));
    for (const wave of waves) expect([wave, stored.filter((id) => id.split('-').at(-2) === wave).length]).toEqual([wave, PER_WAVE]);
    expect(stored.length).toBeLessThan(WAVES * PER_WAVE);

    // The channel redelivers everything it has no acknowledgement for.
    const ingest = t.app.get(InboxIngestService);
    const all = Array.from({ length: WAVES * PER_WAVE }, (_, n) => `${prefix}-${Math.floor(n / PER_WAVE)}-${n % PER_WAVE}`);
    const phones = ['4917000000001', '4917000000002', '4917000000003'];
    await Promise.all(
      all
        .filter((id) => !acked.includes(id))
        .map((externalId, n) => {
          const phone = phones[n % phones.length]!;
          return ingest.ingest(ws.id, {
            channel: 'scan',
            externalId,
            chatJid: `${phone}@s.whatsapp.net`,
            contact: { phone },
            content: externalId,
            timestamp: new Date(),
          });
        }),
    );
    const after = (await t.dataSource.query('SELECT external_id FROM messages WHERE workspace_id = $1', [ws.id])) as { external_id: string }[];
    expect(after.map((row) => row.external_id).sort()).toEqual([...all].sort());
  }, 60_000);
});
