import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { createE2eApp, link, newWorkspace, statusWhen, type E2eWorkspace } from '../e2e/e2e-support.js';
import { connectedWorkspace, createMetaTestApp, type MetaTestApp, newPhone, startConversation } from '../meta/meta-support.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { addWebhook, eventually, json, type Owned, Receiver, type Received, secretOf, WEBHOOK_ENV } from './webhook-support.js';

jest.setTimeout(60_000);

// Loopback endpoints, retries within milliseconds (as createWebhookTestApp runs them).
const PHONE = '15550100381';
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Every body verified with the Standard Webhooks reference library (a forged or stale one throws). */
const verified = (requests: readonly Received[], secret: string): Record<string, unknown>[] =>
  requests.map((request) => {
    expect(request.headers['x-svc-event']).toBe('session.status');
    return new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>) as Record<string, unknown>;
  });

const ownedOf = (t: TestApp, workspaceId: string, cookie: string): Owned => ({
  workspaceId,
  cookie,
  as: (method, path) => t.http()[method](path).set('Cookie', cookie).set('X-Tenant-ID', workspaceId),
});

describe('session.status of the scan number (real driver, simulator)', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let receiver: Receiver;
  let ws: E2eWorkspace;
  let owned: Owned;
  let secret: string;

  beforeAll(async () => {
    [sim, receiver] = await Promise.all([WhatsAppSimulator.start(), Receiver.start()]);
    // A reconnect delay long enough for `reconnecting` to be read before the next attempt starts,
    // even on a loaded machine (the chat tests' own is 20-80 ms).
    t = await createE2eApp(sim, { env: { ...WEBHOOK_ENV, CHAT_RECONNECT_BASE_MS: '500', CHAT_RECONNECT_MAX_MS: '1000' } });
    ws = await newWorkspace(t);
    owned = ownedOf(t, ws.workspaceId, ws.owner.cookie);
    await addWebhook(owned, receiver.url('/status'), { events: ['session.status'] });
    await addWebhook(owned, receiver.url('/chat-only'), { events: ['scan.chat'] });
    secret = await secretOf(owned);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sim?.stop();
  });

  const events = (): Record<string, unknown>[] => verified(receiver.at('/status'), secret);
  const eventWhen = (what: string, check: (body: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> =>
    eventually(what, async () => events().find(check) ?? null, 20_000);

  it('linking ends in connected, with every field of the payload', async () => {
    const connected = await eventWhen('connected', (body) => body.state === 'connected');
    expect(connected).toEqual({
      event: 'session.status',
      channel: 'scan',
      workspace_id: ws.workspaceId,
      timestamp: expect.stringMatching(RFC3339),
      state: 'connected',
      previous_state: expect.any(String),
      since: expect.stringMatching(RFC3339),
      error: '',
      connected: true,
      logged_in: true,
      jid: expect.stringMatching(new RegExp(`^${PHONE}:\\d+@s\\.whatsapp\\.net$`)),
      phone_number_id: '',
    });
    expect(connected.previous_state).not.toBe('connected');
  });

  it('a dropped socket: reconnecting, then connected again', async () => {
    sim.dropConnection(PHONE);
    const reconnecting = await eventWhen('reconnecting', (body) => body.state === 'reconnecting');
    expect(reconnecting).toMatchObject({ previous_state: 'connected', connected: false, logged_in: true, channel: 'scan' });
    // Delivery order is not guaranteed (docs/webhooks.md): the second connected is the one after it.
    const [, back] = await eventually('connected again', async () => {
      const connected = events().filter((body) => body.state === 'connected');
      return connected.length >= 2 ? connected : null;
    });
    expect(back).toMatchObject({ connected: true, logged_in: true, error: '', previous_state: expect.stringMatching(/^(connecting|reconnecting)$/) });
    await statusWhen(t, ws, 'connected', (s) => s.connected === true);
  });

  it('the phone logs the device out: logged_out, not linked, with the reason', async () => {
    sim.unlink(PHONE);
    const out = await eventWhen('logged_out', (body) => body.state === 'logged_out');
    expect(out).toMatchObject({ previous_state: 'connected', connected: false, logged_in: false, jid: '' });
    expect(String(out.error).length).toBeGreaterThan(0);
  });

  it('only on real changes: each event says the state the one before it left, none repeats a state', async () => {
    // In the order they were written (time-ordered ids), as the receiver got them all.
    const rows: { body: Buffer }[] = await t.dataSource.query(
      `SELECT body FROM webhook_events WHERE workspace_id = $1 AND event = 'session.status' ORDER BY id`,
      [ws.workspaceId],
    );
    const written = rows.map((row) => JSON.parse(row.body.toString('utf8')) as Record<string, unknown>);
    expect(written).toHaveLength(events().length);
    for (const [index, body] of written.entries()) {
      expect(body.state).not.toBe(body.previous_state);
      if (index > 0) expect([index, body.previous_state]).toEqual([index, written[index - 1]!.state]);
    }
    expect(written.map((body) => body.state)).toEqual(expect.arrayContaining(['connected', 'reconnecting', 'logged_out']));
  });

  it('a webhook subscribed only to scan.chat receives none of them', async () => {
    expect(receiver.at('/chat-only')).toEqual([]);
    const rows: { n: number }[] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.workspace_id = $1 AND w.url LIKE '%/chat-only'`,
      [ws.workspaceId],
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('session.status of the Cloud number (Graph API fake)', () => {
  let m: MetaTestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    [m, receiver] = await Promise.all([createMetaTestApp({ env: WEBHOOK_ENV }), Receiver.start()]);
  });
  afterAll(async () => {
    await m?.close();
    await receiver?.close();
  });

  it('a refused token gives token_refused once; deleting the settings gives disconnected', async () => {
    const w = await connectedWorkspace(m);
    const owned = ownedOf(m.t, w.workspaceId, w.cookie);
    const path = `/meta-${w.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['session.status'] });
    await addWebhook(owned, receiver.url(`${path}-chat`), { events: ['scan.chat', 'meta.chat'] });
    const secret = await secretOf(owned);
    const { conversationId } = await startConversation(m, w, newPhone());

    m.graph.world.revoke(w.token);
    const send = () => m.t.http().post(`/api/conversations/${conversationId}/messages`).set('Authorization', `Bearer ${w.key}`).send({ body: 'hi' });
    expect((await send()).status).toBe(500);
    // Disconnected now: refused before the provider is asked (and no second event).
    expect((await send()).status).toBe(409);
    const [refused] = verified(await receiver.waitFor(1, path), secret);
    expect(refused).toEqual({
      event: 'session.status',
      channel: 'meta',
      workspace_id: w.workspaceId,
      timestamp: expect.stringMatching(RFC3339),
      state: 'token_refused',
      previous_state: 'connected',
      since: expect.stringMatching(RFC3339),
      error: 'Invalid OAuth access token - Cannot parse access token',
      connected: false,
      logged_in: true,
      jid: '',
      phone_number_id: w.phoneNumberId,
    });

    expect((await m.t.http().delete('/api/meta/settings').set(w.owner)).status).toBe(200);
    const bodies = verified(await receiver.waitFor(2, path), secret);
    expect(bodies[1]).toMatchObject({
      state: 'disconnected',
      previous_state: 'token_refused',
      connected: false,
      logged_in: false,
      phone_number_id: w.phoneNumberId,
    });
    // Saved again with a token the provider takes: connected.
    const token = `EAAG-${w.workspaceId}`;
    m.graph.world.grant(token, w.phoneNumberId, w.wabaId);
    const put = await m.t.http().put('/api/meta/settings').set(w.owner).send({ phone_number_id: w.phoneNumberId, waba_id: w.wabaId, access_token: token });
    expect(put.status).toBe(200);
    const again = verified(await receiver.waitFor(3, path), secret);
    expect(again[2]).toMatchObject({ state: 'connected', previous_state: 'disconnected', connected: true, logged_in: true, error: '' });
    // Saving it once more changes no state; the second refusal changed nothing either: three events in all.
    expect((await m.t.http().put('/api/meta/settings').set(w.owner).send({ phone_number_id: w.phoneNumberId, waba_id: w.wabaId })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at(path)).toHaveLength(3);
    expect(receiver.at(`${path}-chat`).filter((request) => json(request).event === 'session.status')).toEqual([]);
    expect(receiver.at(`${path}-chat`).every((request) => request.headers['x-svc-event'] !== 'session.status')).toBe(true);
  });
});
