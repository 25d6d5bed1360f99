// The built service as an operator runs it (`node dist/src/main.js`): what only a real process
// shows, such as its exit code, what it prints, the ports it opens and how it answers SIGTERM.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { watchOutput } from '../support/service-output.js';
import { TEST_REDIS_URL, createTestDatabase, dropTestDatabase, redisPrefixOfRun, testRunId } from '../support/test-env.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/src/main.js');

interface Service {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first output line containing `text`; rejects if the process exits first. */
  waitFor: (text: string) => Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];

function startService(env: Record<string, string>, cwd = tmpdir()): Service {
  // A clean environment (no NODE_OPTIONS from Jest), run from an empty directory so a developer's
  // .env cannot leak in.
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  return { child, ...watchOutput(child) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Output lines that are not one JSON object each (structured logs only, stdout and stderr). */
function unstructured(output: string): string[] {
  return output
    .split('\n')
    .filter(Boolean)
    .filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
}

function connects(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

describe('the service process', () => {
  let database: { name: string; url: string };
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    // `npm start` does the same: compile only when a source file is newer than the build.
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    database = await createTestDatabase();
    baseEnv = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `${redisPrefixOfRun(testRunId())}:proc`,
      LOG_LEVEL: 'info',
    };
  }, 120_000);

  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  afterAll(async () => {
    if (database) await dropTestDatabase(database.name);
  });

  it('refuses to start with a bad variable, naming each bad one', async () => {
    const service = startService({ ...baseEnv, PORT: 'eighty', REDIS_URL: 'http://127.0.0.1:6379' });
    const { code } = await service.exited;
    expect(code).toBe(78); // EX_CONFIG, as the README says
    expect(service.output()).toContain('PORT');
    expect(service.output()).toContain('REDIS_URL');
    expect(service.output()).not.toContain('DATABASE_URL');
  });

  it('migrates from the command line, and says in one line, without a stack, why it could not', async () => {
    const migrate = (env: Record<string, string>): Promise<{ code: number | null; output: string }> =>
      new Promise((done) => {
        const child = spawn(process.execPath, [resolve(ROOT, 'dist/src/infra/database/migrate.cli.js')], {
          cwd: tmpdir(),
          env: { PATH: process.env.PATH ?? '', ...env },
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        child.once('close', (code) => done({ code, output }));
      });
    expect(await migrate(baseEnv)).toEqual({ code: 0, output: 'database is up to date\n' });
    const config = await migrate({ ...baseEnv, PORT: 'abc' });
    expect([config.code, config.output]).toEqual([78, expect.stringContaining('PORT must be an integer number')]);
    const unreachable = await migrate({ ...baseEnv, DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/inbox` });
    expect([unreachable.code, unreachable.output]).toEqual([1, expect.stringMatching(/^migration failed: .*ECONNREFUSED.*\n$/)]);
    for (const run of [config, unreachable]) expect(run.output).not.toMatch(/^\s+at /m);
  });

  it('refuses to start in production without ENCRYPTION_KEY', async () => {
    const service = startService({ ...baseEnv, NODE_ENV: 'production' });
    const { code } = await service.exited;
    expect(code).toBe(78); // EX_CONFIG, as the README says
    expect(service.output()).toContain('ENCRYPTION_KEY is required');
  });

  it('serves HTTP with ROLE=api and exits cleanly on SIGTERM, closing its port', async () => {
    const port = await freePort();
    const service = startService({ ...baseEnv, ROLE: 'api', PORT: String(port) });
    await service.waitFor('listening on');
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(await connects(port)).toBe(false);
  });

  it('stops on a SIGTERM sent to `npm start` (npm passes it on; the service is not left running)', async () => {
    const port = await freePort();
    // The README's start command (its prestart build step is the beforeAll's).
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...baseEnv, ROLE: 'api', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(npm);
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise((done) => npm.once('exit', done));
    const deadline = Date.now() + 60_000;
    while (!output.includes('listening on') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await connects(port)).toBe(true);
    npm.kill('SIGTERM');
    await exited;
    const closedBy = Date.now() + 10_000;
    while ((await connects(port)) && Date.now() < closedBy) await new Promise((r) => setTimeout(r, 100));
    expect(await connects(port)).toBe(false);
    expect(output).toContain('SIGTERM received');
  }, 90_000);

  it('runs ROLE=worker without opening an HTTP port, warns about the development key, and exits on SIGTERM', async () => {
    const port = await freePort();
    const service = startService({ ...baseEnv, ROLE: 'worker', PORT: String(port), NODE_ENV: 'development' });
    await service.waitFor('worker running');
    expect(await connects(port)).toBe(false);
    expect(service.output()).toContain('ENCRYPTION_KEY is not set: using the fixed development key');

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  });

  it('reads a .env file from its working directory, real environment variables winning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-env-'));
    writeFileSync(join(dir, '.env'), 'ROLE=worker\nPORT=eighty\n');
    const refused = startService(baseEnv, dir);
    expect((await refused.exited).code).toBe(78);
    expect(refused.output()).toContain('PORT');

    const started = startService({ ...baseEnv, PORT: String(await freePort()) }, dir);
    await started.waitFor('worker running'); // ROLE came from .env, PORT from the environment
    started.child.kill('SIGTERM');
    expect((await started.exited).code).toBe(0);
  });

  it('keeps serving while Redis is unreachable, logging only structured lines, and still stops on SIGTERM', async () => {
    const port = await freePort();
    const service = startService({ ...baseEnv, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, PORT: String(port) });
    await service.waitFor('listening on');
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(503);
    await service.waitFor('ECONNREFUSED'); // the connection errors are reported (as JSON lines)

    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    expect(unstructured(service.output())).toEqual([]);
  });

  it('exits with code 1 and one structured line when Postgres is unreachable at start-up', async () => {
    const unreachable = new URL(database.url);
    unreachable.port = String(await freePort());
    const service = startService({ ...baseEnv, DATABASE_URL: unreachable.toString() });
    expect((await service.exited).code).toBe(1);
    const fatal = await service.waitFor('start-up failed');
    expect(JSON.parse(fatal)).toMatchObject({ level: 60, msg: expect.stringContaining('ECONNREFUSED') });
    expect(unstructured(service.output())).toEqual([]);
  });
});
