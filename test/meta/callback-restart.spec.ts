// The provider callback's durability, with the built service as an operator runs it: a process
// killed (SIGKILL) right after answering 200 loses nothing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import pg from 'pg';
import { callback, contact, FakeGraphApi, messagesChange, textMessage } from '../fakes/graph-api/index.js';
import { TEST_REDIS_URL, createTestDatabase, dropTestDatabase, redisPrefixOfRun, testRunId } from '../support/test-env.js';
import { Receiver } from '../webhooks/webhook-support.js';
import { APP_ID, APP_SECRET, deliver, eventually, graphId, type MetaTestApp, newPhone, WEBHOOK_ENV } from './meta-support.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/src/main.js');

interface Service {
  child: ChildProcess;
  exited: Promise<void>;
}

const running: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Starts `node dist/src/main.js` and resolves once it says it is running. */
async function start(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, [MAIN], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  await new Promise<void>((ready, failed) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/"(all|api) listening on|"worker running/.test(output)) ready();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => failed(new Error(`the service exited before it was ready:\n${output}`)));
  });
  return { child, exited };
}

describe('a provider callback when the service dies right after answering 200', () => {
  let database: { name: string; url: string };
  let graph: FakeGraphApi;
  let db: pg.Client;
  let env: Record<string, string>;
  let queue: Queue;
  let receiver: Receiver;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    database = await createTestDatabase();
    receiver = await Receiver.start();
    graph = await FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const prefix = `${redisPrefixOfRun(testRunId())}:meta-restart`;
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'info',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      META_APP_ID: APP_ID,
      META_APP_SECRET: APP_SECRET,
      META_GRAPH_URL: graph.url,
      MEDIA_DIR: resolve(tmpdir(), `meta-restart-${randomBytes(4).toString('hex')}`),
      ...WEBHOOK_ENV,
    };
    queue = new Queue('meta-callback', { connection: { url: TEST_REDIS_URL }, prefix: `${prefix}:bull` });
  }, 120_000);

  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await db?.end();
    await graph?.close();
    await receiver?.close();
    if (database) await dropTestDatabase(database.name);
  });

  it('processes and forwards the stored payload once the service is back, also a callback whose job was lost', async () => {
    const port = await freePort();
    const api = await start({ ...env, ROLE: 'api', PORT: String(port) });
    const baseUrl = `http://127.0.0.1:${port}`;

    // A workspace with a Cloud API number, set up through the API.
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
    const registered = await fetch(`${baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', name: 'Owner' }),
    });
    const cookie = registered.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`${baseUrl}/api/workspaces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ name: 'Shop' }),
    });
    const workspaceId = ((await created.json()) as { id: string }).id;
    const [phoneNumberId, wabaId, token] = [graphId(), graphId(), `EAA${graphId()}`];
    graph.world.addNumber({ id: phoneNumberId, wabaId }, token);
    const saved = await fetch(`${baseUrl}/api/meta/settings`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-Tenant-ID': workspaceId },
      body: JSON.stringify({ phone_number_id: phoneNumberId, waba_id: wabaId, access_token: token }),
    });
    expect(saved.status).toBe(200);
    const hooked = await fetch(`${baseUrl}/api/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-Tenant-ID': workspaceId },
      body: JSON.stringify({ url: receiver.url('/meta'), events: ['meta.chat'] }),
    });
    expect(hooked.status).toBe(201);

    const [first, second] = [newPhone(), newPhone()];
    const payload = (phone: string, text: string) =>
      callback({ wabaId, changes: [messagesChange(phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, text)] })] });
    const target = { baseUrl } as MetaTestApp;
    const one = await deliver(target, payload(first, 'before the crash'));
    const two = await deliver(target, payload(second, 'job lost with Redis'));
    expect([one.status, two.status]).toEqual([200, 200]);
    api.child.kill('SIGKILL');
    await api.exited;

    // Stored, not processed (an api process runs no jobs).
    const stored = await db.query<{ id: string; processed: boolean }>(
      `SELECT id, processed_at IS NOT NULL AS processed FROM meta_callbacks ORDER BY received_at`,
    );
    expect(stored.rows.map((row) => row.processed)).toEqual([false, false]);
    // The second one's job is gone, as if the process had died before enqueuing it or Redis had lost it.
    await queue.remove(`meta-callback-${stored.rows[1]!.id}`);

    await start({ ...env, ROLE: 'worker' });
    await eventually(
      'both callbacks processed',
      async () => (await db.query(`SELECT 1 FROM meta_callbacks WHERE processed_at IS NULL`)).rowCount === 0,
      20_000,
    );
    const messages = await db.query<{ content: string }>(`SELECT content FROM messages WHERE workspace_id = $1 AND channel = 'meta' ORDER BY content`, [
      workspaceId,
    ]);
    expect(messages.rows.map((row) => row.content)).toEqual(['before the crash', 'job lost with Redis']);
    // And forwarded as meta.chat, each exactly as the provider sent it, once.
    await receiver.waitFor(2, '/meta', 20_000);
    const forwarded = receiver.at('/meta').map((request) => request.body.toString('utf8'));
    expect(forwarded.sort()).toEqual([one.sent.toString('utf8'), two.sent.toString('utf8')].sort());
    expect(receiver.at('/meta').every((request) => request.headers['x-svc-event'] === 'meta.chat')).toBe(true);
  }, 60_000);
});
