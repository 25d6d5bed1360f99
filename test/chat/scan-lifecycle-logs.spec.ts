import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LogCapture, type LogLine } from '../support/log-capture.js';
import { chat, createChatApp, eventually, socketOf, type ChatTestApp } from './chat-support.js';

const INFO = 30;
const WARN = 40;

/**
 * The levels the scan sessions log their socket's closes at: linking a number (the 515 restart
 * WhatsApp asks for after every pairing) and a QR nobody scanned are normal, so they must not show
 * up where operators look for trouble (warn and above); a lost connection does.
 */
describe('scan session close logs', () => {
  let t: ChatTestApp;
  const capture = new LogCapture();

  beforeAll(async () => {
    t = await createChatApp({ env: { LOG_LEVEL: 'info' }, customize: capture.customize });
  });
  afterAll(async () => {
    await t?.close();
  });

  const closeLine = (workspaceId: string, code: number): Promise<LogLine> =>
    capture.waitFor((line) => typeof line.msg === 'string' && line.msg.startsWith(`scan session ${workspaceId} closed with ${code} `));

  async function connecting(): Promise<{ workspaceId: string; key: string }> {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    expect((await chat(t, { cookie: owner.cookie, workspaceId: workspace.id }, 'post', '/api/chat/connect')).body.qr_pending).toBe(true);
    return { workspaceId: workspace.id, key };
  }

  it('the 515 restart after pairing is logged at info, a connection lost afterwards as a warning', async () => {
    const { workspaceId, key } = await connecting();
    const first = await socketOf(t, workspaceId);
    await first.scan();
    await eventually('connected', async () => (await chat(t, { key }, 'get', '/api/chat/status')).body.connected === true);
    expect((await closeLine(workspaceId, 515)).level).toBe(INFO);

    const linked = await socketOf(t, workspaceId, (s) => s !== first && s.events.some((e) => e.type === 'open'));
    linked.closeWith(428, 'Connection Terminated');
    expect((await closeLine(workspaceId, 428)).level).toBe(WARN);
  });

  it('a QR that nobody scanned is logged at info when it expires', async () => {
    const { workspaceId, key } = await connecting();
    (await socketOf(t, workspaceId)).closeWith(408, 'QR refs attempts ended', { qrExpired: true });
    await eventually('the QR expired', async () => typeof (await chat(t, { key }, 'get', '/api/chat/qr')).body.error === 'string');
    expect((await closeLine(workspaceId, 408)).level).toBe(INFO);
  });
});
