import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ASSERTION_SENT } from '../../src/modules/chat/passkey/passkey-ceremony.service.js';
import { PASSKEY_CODE_MISMATCH_ERROR } from '../../src/modules/chat/session/session-state.js';
import { linkPayload } from '../support/passkey-link.js';
import { gatedScan, requestPairingCode } from './linking-support.js';
import { SoftAuthenticator } from '../whatsapp-sim/soft-authenticator.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  api,
  authRows,
  chat,
  createE2eApp,
  eventually,
  type Json,
  messageWhen,
  newWorkspace,
  sentMessage,
  sleep,
  status,
  statusWhen,
  type E2eWorkspace,
} from './e2e-support.js';

/**
 * Issue 43: WhatsApp's passkey check, completed (CHAT_PASSKEY_CEREMONY=true), through the real
 * driver against the simulator playing WhatsApp's and the phone's side. The browser's part is a
 * software authenticator here (the Chromium test with the extension is test/console/).
 */
jest.setTimeout(90_000);

describe('scan channel end to end: the passkey ceremony', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim, { env: { CHAT_PASSKEY_CEREMONY: 'true', PUBLIC_URL: 'http://127.0.0.1:1' } });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  const challengeOf = (workspaceId: string, token?: string) => {
    const request = t.http().get(`/api/chat/passkey/${workspaceId}/challenge`);
    return token === undefined ? request : request.set('X-Passkey-Token', token);
  };
  const postAssertion = (workspaceId: string, token: string, body: object) =>
    t.http().post(`/api/chat/passkey/${workspaceId}/assertion`).set('X-Passkey-Token', token).send(body);
  const confirm = (ws: E2eWorkspace, body: object = {}) => chat(t, ws.owner, 'post', '/api/chat/passkey/confirm').send(body);
  const newLink = async (ws: E2eWorkspace) => {
    const answer = await chat(t, ws.owner, 'post', '/api/chat/passkey/link');
    expect(answer.status).toBe(200);
    return { ...linkPayload(String(answer.body.url)), url: String(answer.body.url), expiresAt: String(answer.body.expires_at) };
  };

  it('links through the whole ceremony, states in order, then receives and sends', async () => {
    const phone = '15550104301';
    const passkey = new SoftAuthenticator();
    const { ws, linking } = await gatedScan(t, sim, phone, passkey.passkey);
    const required = await status(t, ws);
    expect(required).toMatchObject({ state: 'passkey_required', connected: false, logged_in: false, qr_pending: false });
    expect(required.passkey).toEqual({ state: 'passkey_required', explanation: expect.stringMatching(/passkey/), code: null, expires_at: expect.any(String) });
    expect(required.error).toBe((required.passkey as Json).explanation);

    const link = await newLink(ws);
    expect(link.url.startsWith('https://web.whatsapp.com/#svc-passkey=')).toBe(true);
    expect(link).toMatchObject({ v: 1, api: 'http://127.0.0.1:1', workspace_id: ws.workspaceId });
    // CORS for the extension, whatever CORS_ORIGINS says.
    const preflight = await t
      .http()
      .options(`/api/chat/passkey/${ws.workspaceId}/assertion`)
      .set('Origin', 'chrome-extension://abcdefghijklmnop')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-passkey-token');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-Passkey-Token/i);

    const challenge = await challengeOf(ws.workspaceId, link.token);
    expect(challenge.status).toBe(200);
    expect(challenge.headers['access-control-allow-origin']).toBe('*');
    const options = challenge.body.options as Json;
    expect(options).toMatchObject({ rpId: 'whatsapp.com', userVerification: 'required', challenge: sim.passkeyCeremony(phone)?.challenge });
    expect(await status(t, ws)).toMatchObject({ state: 'passkey_assertion', passkey: { state: 'passkey_assertion' } });

    // A challenge that is not WhatsApp's is refused here and never reaches WhatsApp; the link stays usable.
    const wrongChallenge = await postAssertion(ws.workspaceId, link.token, passkey.assert('bm90LXRoZS1jaGFsbGVuZ2U'));
    expect(wrongChallenge.status).toBe(400);
    expect(wrongChallenge.body).toEqual({ error: 'assertion challenge does not match' });
    const badShape = await postAssertion(ws.workspaceId, link.token, { id: 'x', type: 'password' });
    expect(badShape.status).toBe(400);

    const sent = await postAssertion(ws.workspaceId, link.token, passkey.assert(String(options.challenge)));
    expect(sent.status).toBe(200);
    const confirmation = await statusWhen(t, ws, 'passkey_confirmation', (s) => s.state === 'passkey_confirmation', 10_000);
    const code = sim.passkeyCode(phone);
    expect(code).toMatch(/^[1-9A-HJ-NP-Z]{4}-[1-9A-HJ-NP-Z]{4}$/);
    expect(confirmation.passkey).toMatchObject({ state: 'passkey_confirmation', code });
    expect(String(confirmation.error)).toContain(String(code));
    // Once the passkey went to WhatsApp, no new link is made (a second assertion would be refused, 409, the ceremony going on).
    const late = await chat(t, ws.owner, 'post', '/api/chat/passkey/link');
    expect([late.status, late.body]).toEqual([409, { error: ASSERTION_SENT }]);
    // The link was used up.
    expect((await postAssertion(ws.workspaceId, link.token, passkey.assert(String(options.challenge)))).body).toEqual({
      error: 'passkey link already used',
    });

    const confirmed = await confirm(ws, { code: String(code).toLowerCase().replace('-', '') });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ state: 'connecting' });
    const device = (await linking) as { jid: string };
    const connected = await statusWhen(t, ws, 'connected', (s) => s.connected === true);
    expect(connected).toMatchObject({ state: 'connected', jid: device.jid });
    expect(connected.passkey).toBeUndefined();
    expect(connected.error).toBeUndefined();

    // Receives and sends like any linked number.
    await sim.waitForLive(phone);
    const contact = '15550104399';
    sim.addContact(contact, 'Pat');
    const inboundId = await sim.deliverText({ from: contact, to: phone, text: 'hello after the passkey' });
    const inbound = await messageWhen(t, ws, inboundId);
    expect(inbound.content).toBe('hello after the passkey');
    const reply = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, { content: 'and a reply' });
    expect(reply.status).toBe(201);
    const out = await sentMessage(t, ws, String(inbound.conversation_id), String(reply.body.id));
    expect(out.status).not.toBe('failed');
    await eventually('the reply at the contact', () => sim.sent(phone).some((m) => m.id === out.chat_message_id), 20_000);
  });

  it('a gated number linking by pairing code goes through the same ceremony', async () => {
    const phone = '15550104307';
    const passkey = new SoftAuthenticator();
    const ws = await newWorkspace(t);
    sim.gateAccount(phone);
    sim.registerPasskey(phone, passkey.passkey);
    const asked = await requestPairingCode(t, ws, { phone });
    expect(asked.status).toBe(200);
    const linking = sim.enterPairingCode(phone, String(asked.body.code));
    linking.catch(() => undefined);
    await statusWhen(t, ws, 'passkey_required', (s) => s.state === 'passkey_required', 10_000);
    const link = await newLink(ws);
    const { options } = (await challengeOf(ws.workspaceId, link.token)).body as { options: Json };
    expect((await postAssertion(ws.workspaceId, link.token, passkey.assert(String(options.challenge)))).status).toBe(200);
    const confirmation = await statusWhen(t, ws, 'passkey_confirmation', (s) => s.state === 'passkey_confirmation', 10_000);
    expect((confirmation.passkey as Json).code).toBe(sim.passkeyCode(phone));
    expect((await confirm(ws)).status).toBe(200);
    const device = (await linking) as { jid: string };
    expect(await statusWhen(t, ws, 'connected', (s) => s.connected === true)).toMatchObject({ state: 'connected', jid: device.jid });
  });

  it('refuses links that are missing, wrong, expired, of another workspace, or of an earlier ceremony', async () => {
    const phone = '15550104302';
    const passkey = new SoftAuthenticator();
    const { ws } = await gatedScan(t, sim, phone, passkey.passkey);
    const other = await gatedScan(t, sim, '15550104303', new SoftAuthenticator().passkey);
    const link = await newLink(ws);
    const otherLink = await newLink(other.ws);

    expect((await challengeOf(ws.workspaceId)).body).toEqual({ error: 'passkey link missing' });
    expect((await challengeOf(ws.workspaceId)).status).toBe(401);
    const wrong = await challengeOf(ws.workspaceId, 'x'.repeat(43));
    expect([wrong.status, wrong.body]).toEqual([401, { error: 'invalid passkey link' }]);
    const foreign = await challengeOf(ws.workspaceId, otherLink.token);
    expect([foreign.status, foreign.body]).toEqual([403, { error: 'passkey link belongs to a different workspace' }]);
    const foreignPost = await postAssertion(ws.workspaceId, otherLink.token, passkey.assert('abc'));
    expect([foreignPost.status, foreignPost.body]).toEqual([403, { error: 'passkey link belongs to a different workspace' }]);
    expect((await challengeOf('not-a-uuid', link.token)).status).toBe(400);
    // A new link replaces the previous one.
    const newer = await newLink(ws);
    expect((await challengeOf(ws.workspaceId, link.token)).body).toEqual({ error: 'invalid passkey link' });
    expect((await challengeOf(ws.workspaceId, newer.token)).status).toBe(200);
    // Nothing was sent to WhatsApp by any of these, and both sessions still wait.
    expect(sim.passkeyCeremony(phone)?.step).toBe('request');
    expect(await status(t, other.ws)).toMatchObject({ state: 'passkey_required' });
  });

  it('an expired link says so', async () => {
    const short = await createE2eApp(sim, { env: { CHAT_PASSKEY_CEREMONY: 'true', CHAT_PASSKEY_LINK_TTL_MS: '1000' } });
    try {
      const ws = await (async () => {
        const created = await short.factories.workspaceWithOwner();
        return { workspaceId: created.workspace.id, owner: { cookie: created.owner.cookie, workspaceId: created.workspace.id }, key: created.key };
      })();
      const phone = '15550104304';
      const passkey = new SoftAuthenticator();
      sim.gateAccount(phone);
      sim.registerPasskey(phone, passkey.passkey);
      expect((await chat(short, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
      const qr = (await eventually('a QR code', async () => {
        const body = (await chat(short, { key: ws.key }, 'get', '/api/chat/qr')).body as Json;
        return body.pending ? body : undefined;
      })) as Json;
      void sim.scanQr(String(qr.code), phone).catch(() => undefined);
      await eventually(
        'passkey_required',
        async () => ((await chat(short, { key: ws.key }, 'get', '/api/chat/status')).body as Json).state === 'passkey_required',
      );
      const answer = await chat(short, ws.owner, 'post', '/api/chat/passkey/link');
      const { token } = linkPayload(String(answer.body.url));
      await sleep(1_200);
      const expired = await short.http().get(`/api/chat/passkey/${ws.workspaceId}/challenge`).set('X-Passkey-Token', token);
      expect([expired.status, expired.body]).toEqual([401, { error: 'passkey link expired: open WhatsApp Web from the Console again' }]);
    } finally {
      await short.close();
    }
  });

  it('an assertion WhatsApp refuses (not the account passkey): failed, no link, no keys left', async () => {
    const phone = '15550104305';
    const passkey = new SoftAuthenticator();
    const { ws, linking } = await gatedScan(t, sim, phone, passkey.passkey);
    const link = await newLink(ws);
    const { options } = (await challengeOf(ws.workspaceId, link.token)).body as { options: Json };
    const refused = await postAssertion(ws.workspaceId, link.token, passkey.assert(String(options.challenge), { foreignKey: true }));
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toMatch(/WhatsApp did not finish the passkey check/);
    await expect(linking).rejects.toThrow();
    const failed = await statusWhen(t, ws, 'failed', (s) => s.state === 'failed', 10_000);
    expect(failed).toMatchObject({ connected: false, logged_in: false, error: expect.stringMatching(/POST \/api\/chat\/connect/) });
    expect(failed.passkey).toBeUndefined();
    expect(sim.devicesOf(phone)).toEqual([]);
    expect(await authRows(t, ws.workspaceId)).toBe(0);
    expect((await confirm(ws)).status).toBe(409);
  });

  it('a code that does not match ends the ceremony: failed, no link, no keys left', async () => {
    const phone = '15550104306';
    const passkey = new SoftAuthenticator();
    const { ws, linking } = await gatedScan(t, sim, phone, passkey.passkey);
    // Nothing to confirm yet.
    expect((await confirm(ws)).status).toBe(409);
    const link = await newLink(ws);
    const { options } = (await challengeOf(ws.workspaceId, link.token)).body as { options: Json };
    expect((await postAssertion(ws.workspaceId, link.token, passkey.assert(String(options.challenge)))).status).toBe(200);
    await statusWhen(t, ws, 'passkey_confirmation', (s) => s.state === 'passkey_confirmation', 10_000);
    const mismatch = await confirm(ws, { code: 'ZZZZ-ZZZZ' === sim.passkeyCode(phone) ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ' });
    expect([mismatch.status, mismatch.body]).toEqual([400, { error: PASSKEY_CODE_MISMATCH_ERROR }]);
    await expect(linking).rejects.toThrow();
    const failed = await status(t, ws);
    expect(failed).toMatchObject({ state: 'failed', connected: false, logged_in: false, error: PASSKEY_CODE_MISMATCH_ERROR });
    expect(sim.devicesOf(phone)).toEqual([]);
    expect(await authRows(t, ws.workspaceId)).toBe(0);
    // A new connect starts afresh with a QR code.
    expect((await chat(t, ws.owner, 'post', '/api/chat/connect')).status).toBe(200);
    expect(await status(t, ws)).toMatchObject({ state: 'qr' });
    expect((await chat(t, ws.owner, 'post', '/api/chat/stop')).status).toBe(200);
  });

  it('a pair-success that skipped the check (signed with the scanned secret) is refused: failed, no link, no keys left', async () => {
    const phone = '15550104308';
    const { ws, linking } = await gatedScan(t, sim, phone, new SoftAuthenticator().passkey);
    await sim.pairSkippingPasskey(phone);
    await expect(linking).rejects.toThrow();
    const failed = await statusWhen(t, ws, 'failed', (s) => s.state === 'failed', 10_000);
    expect(failed).toMatchObject({ connected: false, logged_in: false, error: expect.stringMatching(/passkey check/) });
    expect(sim.devicesOf(phone)).toEqual([]);
    expect(await authRows(t, ws.workspaceId)).toBe(0);
  });

  it('with the ceremony off (the default) nothing of it is offered', async () => {
    const off = await createE2eApp(sim);
    try {
      const created = await off.factories.workspaceWithOwner();
      const link = await chat(off, { cookie: created.owner.cookie, workspaceId: created.workspace.id }, 'post', '/api/chat/passkey/link');
      expect([link.status, link.body]).toEqual([409, { error: 'the passkey ceremony is off on this service (CHAT_PASSKEY_CEREMONY)' }]);
    } finally {
      await off.close();
    }
  });
});
