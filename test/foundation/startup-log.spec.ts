// What the built service (`node dist/src/main.js`) prints when it starts: the one summary line,
// without Nest's route listing; HOST, the address it binds; LOG_FORMAT=pretty for a terminal.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { watchOutput } from '../support/service-output.js';
import { TEST_REDIS_URL, createTestDatabase, databasePrefix, databaseUrl, dropTestDatabase, redisPrefixOfRun, testRunId } from '../support/test-env.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/src/main.js');

interface Service {
  child: ChildProcess;
  output: () => string;
  /** The first output line containing `text`; rejects if the process exits first. */
  waitFor: (text: string) => Promise<string>;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];

function startService(env: Record<string, string>): Service {
  // A clean environment from an empty directory: no NODE_OPTIONS from Jest, no developer's .env.
  const child = spawn(process.execPath, [MAIN], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  const watched = watchOutput(child);
  return { child, ...watched, exited: watched.exited.then(({ code }) => code) };
}

async function stop(service: Service): Promise<number | null> {
  service.child.kill('SIGTERM');
  return service.exited;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

function connects(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

const jsonLines = (output: string): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the start-up log', () => {
  let baseEnv: Record<string, string>;
  const dropLater: string[] = [];

  beforeAll(async () => {
    // `npm start` does the same: compile only when a source file is newer than the build.
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    baseEnv = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `${redisPrefixOfRun(testRunId())}:startup`, LOG_LEVEL: 'info' };
  }, 120_000);

  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  afterAll(async () => {
    for (const name of dropLater) await dropTestDatabase(name);
  });

  it('ends with one summary line: role, address, database created and migrated, WhatsApp endpoint without credentials; no route listing', async () => {
    // A database that does not exist yet, as on a first start.
    const name = `${databasePrefix(testRunId())}_startup_${randomBytes(4).toString('hex')}`;
    dropLater.push(name);
    const port = await freePort();
    const service = startService({
      ...baseEnv,
      DATABASE_URL: databaseUrl(name),
      ROLE: 'all',
      PORT: String(port),
      HOST: '127.0.0.1',
      WA_WEBSOCKET_URL: 'ws://sim-user:sim-secret@127.0.0.1:7355/ws/chat?token=t0ken',
    });
    const line = JSON.parse(await service.waitFor('listening on')) as { level: number; msg: string; startup: Record<string, unknown> };
    expect(line.level).toBe(30);
    expect(line.startup).toEqual({
      role: 'all',
      listen: `127.0.0.1:${port}`,
      public_url: `http://localhost:${port}`,
      database: { target: `${name} at 127.0.0.1:5432`, created: true, migrations_applied: expect.any(Number) },
      whatsapp: { endpoint: 'ws://127.0.0.1:7355/ws/chat', default: false },
    });
    expect((line.startup.database as { migrations_applied: number }).migrations_applied).toBeGreaterThan(0);
    expect(line.msg).toMatch(
      new RegExp(
        `^all listening on 127\\.0\\.0\\.1:${port}, public URL http://localhost:${port}; database ${name} at 127\\.0\\.0\\.1:5432 \\(created\\), \\d+ migrations applied now; WhatsApp ws://127\\.0\\.0\\.1:7355/ws/chat \\(WA_WEBSOCKET_URL\\)$`,
      ),
    );

    expect(await stop(service)).toBe(0);
    const output = service.output();
    expect(output).not.toContain('Mapped {');
    expect(output).not.toContain('sim-secret');
    expect(output).not.toContain('t0ken');
    // Nest's module and route chatter is gone from info; the service's own lines stay.
    const contexts = new Set(jsonLines(output).map((l) => l.context));
    for (const framework of ['RouterExplorer', 'RoutesResolver', 'InstanceLoader', 'NestFactory', 'NestApplication']) expect(contexts).not.toContain(framework);
    expect(contexts).toContain('Bootstrap');
  });

  it('says "no HTTP" for ROLE=worker, and that an existing database was up to date', async () => {
    const database = await createTestDatabase(); // migrated already
    dropLater.push(database.name);
    const service = startService({ ...baseEnv, DATABASE_URL: database.url, ROLE: 'worker' });
    const line = JSON.parse(await service.waitFor('worker running')) as { msg: string; startup: Record<string, unknown> };
    expect(line.startup).toEqual({
      role: 'worker',
      listen: 'no HTTP',
      public_url: null,
      database: { target: `${database.name} at 127.0.0.1:5432`, created: false, migrations_applied: 0 },
      whatsapp: { endpoint: 'wss://web.whatsapp.com/ws/chat', default: true },
    });
    expect(line.msg).toBe(
      `worker running (no HTTP); database ${database.name} at 127.0.0.1:5432 (existing), migrations up to date; WhatsApp wss://web.whatsapp.com/ws/chat (default)`,
    );
    expect(await stop(service)).toBe(0);
  });

  it('binds HOST only: answers on 127.0.0.1, not on 127.0.0.2', async () => {
    const database = await createTestDatabase();
    dropLater.push(database.name);
    const port = await freePort();
    const service = startService({ ...baseEnv, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1' });
    await service.waitFor('listening on');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    expect(await connects(port, '127.0.0.2')).toBe(false);
    expect(await stop(service)).toBe(0);

    // Without HOST: every interface, as before.
    const everywhere = startService({ ...baseEnv, DATABASE_URL: database.url, PORT: String(port) });
    expect(await everywhere.waitFor('listening on')).toContain('(all interfaces)');
    expect(await connects(port, '127.0.0.2')).toBe(true);
    expect(await stop(everywhere)).toBe(0);
  });

  it.each([
    ['HOST', 'not an address'],
    ['HOST', '300.1.2.3'],
    ['LOG_FORMAT', 'xml'],
  ])('refuses %s=%j with exit code 78, naming the variable', async (name, value) => {
    const service = startService({ ...baseEnv, [name]: value });
    expect(await service.exited).toBe(78);
    expect(service.output()).toContain(name);
    expect(service.output()).not.toContain('listening on');
  });

  it('LOG_FORMAT=pretty prints readable lines, no JSON; the route listing is there at LOG_LEVEL=debug', async () => {
    const database = await createTestDatabase();
    dropLater.push(database.name);
    const port = await freePort();
    const service = startService({ ...baseEnv, DATABASE_URL: database.url, PORT: String(port), LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    const summary = await service.waitFor('listening on');
    expect(await stop(service)).toBe(0);
    expect(summary).toMatch(/^\[?\d\d:\d\d:\d\d\.\d{3}\]? INFO.*: \[Bootstrap\] all listening on (\[::\]|0\.0\.0\.0):\d+ \(all interfaces\)/);
    expect(service.output()).toMatch(/DEBUG.*: \[RouterExplorer\] Mapped \{\/api\/health, GET\} route/);
    expect(jsonLines(service.output())).toEqual([]);
  });
});
