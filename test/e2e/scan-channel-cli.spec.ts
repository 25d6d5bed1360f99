import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { runCommand } from '../../src/cli/cli-commands.js';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorService } from '../../src/cli/operator.service.js';
import { SessionCommands } from '../../src/cli/session-commands.service.js';
import { PlacementService } from '../../src/modules/chat/placement/placement.service.js';
import { ScanLeases } from '../../src/modules/chat/session/scan-leases.js';
import { ScanControlBus } from '../../src/modules/chat/session/scan-control.bus.js';
import { ScanControlService } from '../../src/modules/chat/session/scan-control.service.js';
import { ScanStateService } from '../../src/modules/chat/session/scan-state.service.js';
import { WorkspaceRepository } from '../../src/modules/tenants/workspaces/workspace.repository.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  countConnections,
  createE2eApp,
  link,
  linkSettled,
  newWorkspace,
  sleep,
  status,
  statusWhen,
  workerProcessEnv,
  type E2eWorkspace,
} from './e2e-support.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Issue 37: the session controls from the operator CLI (`npm run cli -- session-…`), in process
 * and as the built CLI talking to the service's worker over Redis, as an operator's script would.
 */
jest.setTimeout(120_000);

const PHONE = '15550103901';

describe('scan channel end to end: stop and restart from the CLI', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  let sessions: SessionCommands;

  beforeAll(async () => {
    // Builds only when sources changed; a type error elsewhere in the tree must not hide the CLI.
    await run(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT }).catch(() => undefined);
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim, { imports: [OperatorModule] });
    ws = await newWorkspace(t);
    sessions = new SessionCommands(
      t.app.get(ScanControlService),
      t.app.get(ScanStateService),
      t.app.get(WorkspaceRepository, { strict: false }),
      t.app.get(PlacementService),
      t.app.get(ScanLeases),
    );
    await link(t, sim, ws, PHONE);
    await linkSettled(t, ws.workspaceId);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('in process: session-status, session-stop (no socket, nothing reconnects), session-restart (back without a QR code)', async () => {
    const cli = (...argv: string[]): Promise<Record<string, unknown>> =>
      runCommand(argv, t.app.get(OperatorService), undefined, sessions) as Promise<Record<string, unknown>>;
    expect(await cli('session-status', ws.workspaceId)).toMatchObject({ state: 'connected', connected: true, logged_in: true });

    const counts = countConnections(sim, PHONE);
    expect(await cli('session-stop', ws.workspaceId)).toMatchObject({ state: 'stopped', connected: false, logged_in: true });
    await sim.waitForOffline(PHONE);
    await sleep(1_000);
    expect(sim.connectionsOf(PHONE)).toEqual([]);
    expect(counts.logins).toBe(0);

    expect(await cli('session-restart', ws.workspaceId)).toMatchObject({ logged_in: true });
    await statusWhen(t, ws, 'connected again', (s) => s.connected === true);
    expect(counts.qrs).toBe(0);
    await expect(cli('session-stop', '00000000-0000-4000-8000-000000000000')).rejects.toThrow('workspace not found: 00000000-0000-4000-8000-000000000000');
    await expect(cli('session-stop')).rejects.toThrow('session-stop takes <workspace_id>');
  });

  it('the built CLI: session-stop and session-restart reach the worker holding the socket, and print the state', async () => {
    expect(existsSync(`${ROOT}dist/src/cli.js`)).toBe(true);
    const env = workerProcessEnv(t, sim, { LOG_LEVEL: 'silent' });
    const cli = async (...argv: string[]): Promise<Record<string, unknown>> =>
      JSON.parse((await run(process.execPath, ['dist/src/cli.js', ...argv], { cwd: ROOT, env })).stdout) as Record<string, unknown>;
    await statusWhen(t, ws, 'connected', (s) => s.connected === true);

    // `help` needs nothing of the others: it runs beside the first command (each spawn boots the
    // built service's module graph, about 2 s of CPU).
    const [stopped, help] = await Promise.all([cli('session-stop', ws.workspaceId), run(process.execPath, ['dist/src/cli.js', 'help'], { cwd: ROOT, env })]);
    expect(stopped).toMatchObject({ state: 'stopped', connected: false, logged_in: true });
    await sim.waitForOffline(PHONE);
    expect(await status(t, ws)).toMatchObject({ state: 'stopped', connected: false });

    await cli('session-restart', ws.workspaceId);
    expect(await statusWhen(t, ws, 'connected again', (s) => s.connected === true)).toMatchObject({ state: 'connected' });
    expect(await cli('session-status', ws.workspaceId)).toMatchObject({ state: 'connected', connected: true });
    expect(help.stdout).toContain('session-restart <workspace_id>');
    expect(help.stdout).toContain('placement');

    // Which worker holds the number, and its home: the one worker here (this test's app) holds it at home.
    const placement = await cli('placement');
    const worker = t.app.get(ScanControlBus).processId;
    expect(placement.workers).toEqual([{ id: worker, capacity: 1000, held: 1, leaving: false }]);
    expect(placement.numbers).toEqual([{ workspace_id: ws.workspaceId, holder: worker, home: worker, moving: false }]);
    expect([placement.moving, placement.unplaced]).toEqual([0, 0]);
  });
});
