import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ChannelNotConnectedError } from '../../src/modules/channels/channel-gateway.port.js';
import { ScanChannelGateway } from '../../src/modules/chat/inbound/scan-channel.gateway.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { chat, createE2eApp, link, newWorkspace, type E2eWorkspace } from '../e2e/e2e-support.js';

/**
 * `GET /api/chat/check` end to end: the real Baileys driver asks the simulator (a usync by phone);
 * answers are cached, live checks limited to 30 a minute per workspace (issue 40).
 */
jest.setTimeout(60_000);

const PHONE = '15550100401';
const KNOWN = '4915100004001';

describe('number check: is a phone on WhatsApp', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  const check = (phone: string | null, workspace = ws) =>
    chat(t, { key: workspace.key }, 'get', phone === null ? '/api/chat/check' : `/api/chat/check?phone=${encodeURIComponent(phone)}`);

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    sim.addContact(KNOWN, 'Known');
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('answers 409 while the number is not connected, and 400 for what is not a phone number', async () => {
    const res = await check(KNOWN);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'chat is not connected' });
    for (const bad of [null, '', 'abc', '0151 2345678', '12345', '+1234567890123456']) {
      const refused = await check(bad);
      expect({ bad, status: refused.status, body: refused.body }).toEqual({ bad, status: 400, body: { error: 'invalid phone number' } });
    }
    const twice = await chat(t, { key: ws.key }, 'get', `/api/chat/check?phone=${KNOWN}&phone=${KNOWN}`);
    expect(twice.status).toBe(400);
  });

  it('a number WhatsApp knows: exists with its jid; asked again, the cached answer (any spelling)', async () => {
    await link(t, sim, ws, PHONE);
    const before = Date.now();
    const first = await check(`+${KNOWN}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ phone: KNOWN, exists: true, jid: `${KNOWN}@s.whatsapp.net`, cached: false, checked_at: expect.any(String) });
    const checkedAt = Date.parse(first.body.checked_at as string);
    expect(checkedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(checkedAt).toBeLessThanOrEqual(Date.now() + 1000);

    const again = await check('+49 151 0000 4001');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, cached: true });
  });

  it('a number not on WhatsApp: exists false and no jid, cached too', async () => {
    const unknown = '4915100004999';
    const first = await check(unknown);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ phone: unknown, exists: false, jid: null, cached: false, checked_at: expect.any(String) });
    expect((await check(unknown)).body).toEqual({ ...first.body, cached: true });
  });

  it('allows 30 live checks a minute per workspace: the 31st is 429 with Retry-After; cached answers and the inbox check still answer', async () => {
    // Two live checks so far in this minute (the known and the unknown number).
    for (let n = 3; n <= 30; n += 1) {
      const res = await check(`4915100005${String(n).padStart(3, '0')}`);
      expect({ n, status: res.status, cached: res.body.cached }).toEqual({ n, status: 200, cached: false });
    }
    const refused = await check('4915100005031');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'too many attempts, please wait a minute and try again' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Cached answers do not count toward the limit.
    expect((await check(KNOWN)).body).toMatchObject({ exists: true, cached: true });
    // Nor does the check the inbox makes before a first message.
    const gateway = t.app.get(ScanChannelGateway);
    expect(await gateway.lookup(ws.workspaceId, '4915100005032', { countsTowardLimit: false })).toEqual({ exists: false, jid: null });
    expect(await gateway.lookup(ws.workspaceId, KNOWN, { countsTowardLimit: false })).toEqual({ exists: true, jid: `${KNOWN}@s.whatsapp.net` });

    // Another workspace has its own budget (and is not connected).
    const other = await newWorkspace(t);
    expect((await check('4915100005033', other)).status).toBe(409);
    await expect(gateway.lookup(other.workspaceId, '4915100005033', { countsTowardLimit: false })).rejects.toBeInstanceOf(ChannelNotConnectedError);
  });
});
