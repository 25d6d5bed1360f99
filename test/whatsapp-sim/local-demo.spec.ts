import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { localDemoEnv } from './local-demo.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HEADING = '### Local demo: the simulator and a webhook receiver';
// What the docs show: `npm run sim` on its default port, `npm start` in the repository root.
const DEFAULT_URL = 'ws://127.0.0.1:7355/ws/chat';
const CA_FILE = 'test/whatsapp-sim/certs/ca.pem';

/** The "Local demo" section of a document, from its heading to the next one (outside code blocks). */
function demoSection(file: string): string {
  const lines = readFileSync(resolve(ROOT, file), 'utf8').split('\n');
  const start = lines.indexOf(HEADING);
  expect(start).toBeGreaterThanOrEqual(0);
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end += 1) {
    if (lines[end]!.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,3} /.test(lines[end]!)) break;
  }
  return lines.slice(start, end).join('\n').trimEnd();
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

const running: ChildProcess[] = [];

describe('the local demo (simulator and webhook receiver)', () => {
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('is the same section in the README and docs/whatsapp-sim.md, with the .env lines of the simulator', () => {
    const readme = demoSection('README.md');
    expect(demoSection('docs/whatsapp-sim.md')).toBe(readme);
    expect(readme).toContain(`\`\`\`sh\n${localDemoEnv(DEFAULT_URL, CA_FILE)}\n\`\`\``);
  });

  it('its .env lines are five settings the service accepts: the simulator, its media CA and loopback media host, webhooks to this machine', () => {
    const env = parseEnv(localDemoEnv(DEFAULT_URL, CA_FILE));
    expect(Object.keys(env).sort()).toEqual([
      'ALLOW_HTTP_WEBHOOKS',
      'ALLOW_PRIVATE_MEDIA_URLS',
      'ALLOW_PRIVATE_WEBHOOKS',
      'WA_MEDIA_CA_FILE',
      'WA_WEBSOCKET_URL',
    ]);
    // Relative to the repository root, where `npm start` runs.
    const config = loadConfig({ ...env, WA_MEDIA_CA_FILE: resolve(ROOT, env.WA_MEDIA_CA_FILE!) });
    expect(config.waWebSocketUrl).toBe(DEFAULT_URL);
    expect(config.waMediaCa?.pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(config.allowPrivateMediaUrls).toBe(true);
    expect(config.webhooks).toMatchObject({ allowHttp: true, allowPrivate: true });
  });

  it('`npm run sim` prints those lines with the port it listens on', async () => {
    // The build step of `npm run sim`.
    execFileSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'test/whatsapp-sim/tsconfig.json'], { cwd: ROOT, stdio: 'pipe' });
    const [port, controlPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['dist/sim-build/test/whatsapp-sim/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SIM_PORT: String(port), SIM_CONTROL_PORT: String(controlPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    await new Promise<void>((ready, failed) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('control API')) ready();
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) => failed(new Error(`the simulator exited (${code}):\n${output}`)));
    });
    expect(output).toContain(localDemoEnv(`ws://127.0.0.1:${port}/ws/chat`, CA_FILE));
    child.kill('SIGTERM');
  }, 60_000);
});
