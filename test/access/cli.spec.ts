import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCommand, UsageError } from '../../src/cli/cli-commands.js';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorError, OperatorService } from '../../src/cli/operator.service.js';
import { verifyPassword } from '../../src/infra/crypto/hashing.js';
import { createTestDatabase, databaseUrl, dropTestDatabase, withAdminClient } from '../support/test-env.js';
import { createTestApp, type TestApp, testEnv } from '../support/test-app.js';
import { send } from './support/access-fixtures.js';
import { AccessProbeController } from './support/access-probe.controller.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

describe('operator CLI (in-process)', () => {
  let t: TestApp;
  let cli: (...argv: string[]) => Promise<Record<string, unknown>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTIONS_ENFORCED: 'true' }, imports: [OperatorModule], controllers: [AccessProbeController] });
    const operator = t.app.get(OperatorService);
    cli = async (...argv) => (await runCommand(argv, operator)) as Record<string, unknown>;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a workspace with a new owner who can sign in, then issues a working key', async () => {
    const created = await cli('create-workspace', '--name', 'Acme', '--owner-email', 'Ops@Example.test', '--owner-password', 'long enough pw');
    expect(created).toEqual({
      workspace: { id: expect.any(String), name: 'Acme', subscription_status: 'none', created_at: expect.any(String) },
      owner: { id: expect.any(String), email: 'ops@example.test', created: true },
    });
    const { workspace, owner } = created as { workspace: { id: string }; owner: { id: string } };
    const [user] = await t.dataSource.query(`SELECT password_hash, email_verified_at FROM users WHERE id = $1`, [owner.id]);
    expect(await verifyPassword('long enough pw', user.password_hash)).toBe(true);
    expect(user.email_verified_at).toBeInstanceOf(Date);
    const [member] = await t.dataSource.query(`SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspace.id, owner.id]);
    expect(member).toEqual({ role: 'owner' });

    const issued = await cli('issue-key', workspace.id, '--scope', 'full_access', '--name', 'deploy');
    expect(issued).toMatchObject({ workspace_id: workspace.id, name: 'deploy', scope: 'write', key: expect.stringMatching(/^pk_live_[0-9a-f]{48}$/) });
    const asKey = { headers: { Authorization: `Bearer ${issued.key as string}` } };
    // Subscriptions are enforced in this app: 402 until the operator sets one.
    expect((await send(t, 'POST', '/test-access/member', asKey)).status).toBe(402);
    expect(await cli('subscription', workspace.id, 'active')).toMatchObject({ id: workspace.id, subscription_status: 'active' });
    expect((await send(t, 'POST', '/test-access/member', asKey)).status).toBe(201);
  });

  it('reuses an existing owner without touching their password', async () => {
    const user = await t.factories.user({ email: 'existing@example.test' });
    const created = await cli('create-workspace', '--name', 'Second', '--owner-email', 'existing@example.test', '--subscription', 'trialing');
    expect(created).toMatchObject({ workspace: { name: 'Second', subscription_status: 'trialing' }, owner: { id: user.id, created: false } });
  });

  it('issues read keys by default', async () => {
    const workspace = await t.factories.workspace();
    expect(await cli('issue-key', workspace.id)).toMatchObject({ scope: 'read', name: 'cli' });
  });

  it.each([
    [['subscription', '6f1c1c1e-1111-4111-8111-111111111111', 'active'], OperatorError, 'workspace not found: 6f1c1c1e-1111-4111-8111-111111111111'],
    [['subscription', 'nope', 'active'], OperatorError, 'invalid workspace id: nope'],
    [
      ['subscription', '6f1c1c1e-1111-4111-8111-111111111111', 'gold'],
      UsageError,
      'status must be one of none, trialing, active, past_due, canceled (got "gold")',
    ],
    [['issue-key', '6f1c1c1e-1111-4111-8111-111111111111', '--scope', 'admin'], UsageError, 'scope must be one of read, write, full, full_access'],
    [['issue-key', '6f1c1c1e-1111-4111-8111-111111111111'], OperatorError, 'workspace not found: 6f1c1c1e-1111-4111-8111-111111111111'],
    [
      ['create-workspace', '--name', 'X', '--owner-email', 'nobody@example.test'],
      OperatorError,
      'no user with email nobody@example.test: pass --owner-password to create one',
    ],
    [['create-workspace', '--name', 'X', '--owner-email', 'a@b.test', '--owner-password', 'short'], OperatorError, 'password must be at least 8 characters'],
    [['create-workspace', '--owner-email', 'a@b.test'], UsageError, 'missing --name'],
    // The API's limits, through the API's own DTOs.
    [
      ['create-workspace', '--name', 'n'.repeat(101), '--owner-email', 'a@b.test', '--owner-password', 'long enough pw'],
      UsageError,
      'name must be at most 100 characters',
    ],
    [['issue-key', '6f1c1c1e-1111-4111-8111-111111111111', '--name', 'n'.repeat(101)], UsageError, 'name is required (1 to 100 characters)'],
    [['frobnicate'], UsageError, 'unknown command: frobnicate'],
  ])('%j fails with a clear message', async (argv, type, message) => {
    const failure = runCommand(argv, t.app.get(OperatorService));
    await expect(failure).rejects.toThrow(type);
    await expect(failure).rejects.toThrow(message);
  });

  it('accepts names of up to 100 characters, trimmed like the API does', async () => {
    const created = await cli(
      'create-workspace',
      '--name',
      ` ${'w'.repeat(100)} `,
      '--owner-email',
      'limits@example.test',
      '--owner-password',
      'long enough pw',
    );
    const { workspace } = created as { workspace: { id: string; name: string } };
    expect(workspace.name).toBe('w'.repeat(100));
    expect(await cli('issue-key', workspace.id, '--name', ` ${'k'.repeat(100)} `)).toMatchObject({ name: 'k'.repeat(100) });
    const stored = await t.dataSource.query(`SELECT name FROM api_keys WHERE workspace_id = $1`, [workspace.id]);
    expect(stored).toEqual([{ name: 'k'.repeat(100) }]);
  });

  it('rejects unknown options as a usage error', async () => {
    await expect(runCommand(['issue-key', 'x', '--bogus'], t.app.get(OperatorService))).rejects.toThrow(UsageError);
  });
});

describe('operator CLI (the built dist/src/cli.js, end to end)', () => {
  let database: { name: string; url: string };
  beforeAll(async () => {
    database = await createTestDatabase();
    // Builds only when sources changed; a type error elsewhere in the tree must not hide the CLI.
    await run(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT }).catch(() => undefined);
  }, 120_000);
  afterAll(async () => {
    if (database) await dropTestDatabase(database.name);
  });

  it('prints JSON and exits 0, or prints the error and exits non-zero', async () => {
    expect(existsSync(`${ROOT}dist/src/cli.js`)).toBe(true);
    const env = { ...process.env, ...testEnv(database.url), LOG_LEVEL: 'info' };
    const cli = (...argv: string[]) => run(process.execPath, ['dist/src/cli.js', ...argv], { cwd: ROOT, env });
    // Each spawn boots the built service's module graph (about 2 s of CPU): the runs that do not
    // depend on each other's output run side by side.
    const [{ stdout }, unknown, help] = await Promise.all([
      cli('create-workspace', '--name', 'Spawned', '--owner-email', 'spawn@example.test', '--owner-password', 'spawned pw 1'),
      cli('bogus').catch((error: { code: number; stdout: string; stderr: string }) => error),
      cli('help'),
    ]);
    const created = JSON.parse(stdout) as { workspace: { id: string } };
    // A DATABASE_URL naming no database: an error, and no new (empty) database left behind.
    const missing = `${database.name}_typo`;
    const [keyRun, pastDue, failed, typo] = await Promise.all([
      cli('issue-key', created.workspace.id, '--scope', 'write'),
      cli('subscription', created.workspace.id, 'past_due'),
      cli('subscription', created.workspace.id, 'gold').catch((error: { code: number; stderr: string }) => error),
      run(process.execPath, ['dist/src/cli.js', 'issue-key', created.workspace.id], {
        cwd: ROOT,
        env: { ...env, DATABASE_URL: databaseUrl(missing) },
      }).catch((error: { code: number; stdout: string; stderr: string }) => error),
    ]);
    const issued = JSON.parse(keyRun.stdout) as { key: string };
    expect(issued.key).toMatch(/^pk_live_[0-9a-f]{48}$/);
    expect(JSON.parse(pastDue.stdout)).toMatchObject({ subscription_status: 'past_due' });
    expect(failed).toMatchObject({ code: 2, stdout: '' });
    // One JSON line on stderr, whatever the mistake; `help` has the usage.
    expect(JSON.parse((failed as { stderr: string }).stderr)).toEqual({ error: expect.stringContaining('status must be one of') });
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse((unknown as { stderr: string }).stderr)).toEqual({ error: 'unknown command: bogus (npm run cli -- help lists the commands)' });
    expect(help.stdout).toContain('subscription <workspace_id>');

    expect(typo).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse((typo as { stderr: string }).stderr)).toEqual({ error: expect.stringContaining(`database "${missing}" does not exist`) });
    expect((await withAdminClient((admin) => admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [missing]))).rowCount).toBe(0);
  }, 60_000);

  it('with Redis unreachable, issues keys and reports a subscription change as one JSON error on stderr', async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    const env = { ...process.env, ...testEnv(database.url), LOG_LEVEL: 'info', REDIS_URL: 'redis://127.0.0.1:1' };
    const cli = (...argv: string[]) => run(process.execPath, ['dist/src/cli.js', ...argv], { cwd: ROOT, env });
    const created = await cli('create-workspace', '--name', 'No Redis', '--owner-email', 'noredis@example.test', '--owner-password', 'no redis pw 1');
    expect(created.stderr).toBe('');
    const { workspace } = JSON.parse(created.stdout) as { workspace: { id: string } };
    const [issued, failed] = await Promise.all([
      cli('issue-key', workspace.id),
      cli('subscription', workspace.id, 'active').catch((error: { code: number; stdout: string; stderr: string }) => error),
    ]);
    expect({ stderr: issued.stderr, key: (JSON.parse(issued.stdout) as { key: string }).key }).toEqual({ stderr: '', key: expect.stringMatching(/^pk_live_/) });

    expect(failed).toMatchObject({ code: 1, stdout: '' });
    const { stderr } = failed as { stderr: string };
    expect(
      stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([{ error: 'subscription saved, but Redis is unreachable: API keys see the change within 5 minutes' }]);
  }, 60_000);
});
