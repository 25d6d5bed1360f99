import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPH_ERRORS } from '../fakes/graph-api/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { APP_ID, APP_SECRET, CONFIG_ID, connectedWorkspace, createMetaTestApp, graphId, type MetaTestApp, ownerHeaders } from './meta-support.js';

describe('guided signup (Embedded Signup)', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const owner = (): Promise<Record<string, string>> => ownerHeaders(m);

  function signupCode(): { code: string; token: string; phoneNumberId: string; wabaId: string } {
    const code = `AQ${graphId()}`;
    const token = `EAAB${graphId()}`;
    const phoneNumberId = graphId();
    const wabaId = graphId();
    m.graph.world.addSignupCode(code, token, { id: phoneNumberId, wabaId, displayPhoneNumber: '+49 151 2345', verifiedName: 'Kiosk' });
    return { code, token, phoneNumberId, wabaId };
  }

  it('hands the Console what Embedded Signup (v4) needs', async () => {
    const res = await m.t
      .http()
      .get('/api/meta/signup/config')
      .set(await owner());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ app_id: APP_ID, config_id: CONFIG_ID, graph_version: 'v23.0', signup_version: 'v4' });
  });

  it('exchanges the code, subscribes the app, registers the number and saves the settings', async () => {
    const headers = await owner();
    const s = signupCode();
    m.graph.reset();
    const res = await m.t.http().post('/api/meta/signup').set(headers).send({ code: s.code, waba_id: s.wabaId, phone_number_id: s.phoneNumberId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      phone_number_id: s.phoneNumberId,
      waba_id: s.wabaId,
      display_phone_number: '+49 151 2345',
      verified_name: 'Kiosk',
      connected: true,
      token_set: true,
      error: null,
    });
    const [exchange, subscribe, register] = m.graph.requests;
    expect([exchange!.method, exchange!.path, exchange!.query]).toEqual([
      'GET',
      '/oauth/access_token',
      { client_id: APP_ID, client_secret: APP_SECRET, code: s.code },
    ]);
    expect([subscribe!.method, subscribe!.path, subscribe!.token]).toEqual(['POST', `/${s.wabaId}/subscribed_apps`, s.token]);
    expect([register!.method, register!.path, register!.token]).toEqual(['POST', `/${s.phoneNumberId}/register`, s.token]);
    expect(register!.json).toEqual({ messaging_product: 'whatsapp', pin: expect.stringMatching(/^\d{6}$/) });
    // The PIN is kept, sealed: the number cannot be re-registered without it.
    const stored: { registration_pin: string }[] = await m.t.dataSource.query(`SELECT registration_pin FROM meta_settings WHERE workspace_id = $1`, [
      headers['X-Tenant-ID'],
    ]);
    expect(stored[0]!.registration_pin).toMatch(/^v1\./);
    expect(stored[0]!.registration_pin).not.toContain((register!.json as { pin: string }).pin);
  });

  it('answers a refused code with 502 and the provider fields, saving nothing', async () => {
    const headers = await owner();
    const res = await m.t.http().post('/api/meta/signup').set(headers).send({ code: 'AQused', waba_id: graphId(), phone_number_id: graphId() });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: 'provider rejected the signup: This authorization code has been used.',
      provider_code: 100,
      provider_subcode: 36009,
      provider_title: 'Invalid verification code format',
    });
    expect((await m.t.http().get('/api/meta/settings').set(headers)).body.phone_number_id).toBeNull();
  });

  it('answers a failed registration with 502, saving nothing', async () => {
    const headers = await owner();
    const s = signupCode();
    m.graph.failNext({ path: `/${s.phoneNumberId}/register` }, GRAPH_ERRORS.registrationPinMismatch);
    const res = await m.t.http().post('/api/meta/signup').set(headers).send({ code: s.code, waba_id: s.wabaId, phone_number_id: s.phoneNumberId });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: 'provider rejected the signup: (#133005) Two step verification PIN Mismatch',
      provider_code: 133005,
      provider_title: 'Two step verification PIN Mismatch',
    });
    expect((await m.t.http().get('/api/meta/settings').set(headers)).body.token_set).toBe(false);
  });

  it('refuses a number another workspace has with 409 before exchanging the code', async () => {
    const taken = await connectedWorkspace(m);
    m.graph.reset();
    const res = await m.t
      .http()
      .post('/api/meta/signup')
      .set(await owner())
      .send({ code: 'AQx', waba_id: taken.wabaId, phone_number_id: taken.phoneNumberId });
    expect([res.status, res.body]).toEqual([409, { error: 'this phone number is connected to another workspace' }]);
    expect(m.graph.requests).toEqual([]);
  });

  it('validates the body', async () => {
    const res = await m.t
      .http()
      .post('/api/meta/signup')
      .set(await owner())
      .send({ waba_id: '12', phone_number_id: '34' });
    expect([res.status, res.body]).toEqual([400, { error: 'code is required' }]);
    const spaced = await m.t
      .http()
      .post('/api/meta/signup')
      .set(await owner())
      .send({ code: 'a b', waba_id: '12', phone_number_id: '34' });
    expect([spaced.status, spaced.body]).toEqual([400, { error: 'code must be the code the signup popup returned' }]);
  });
});

describe('guided signup without the platform’s Meta app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { META_APP_ID: APP_ID } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 customer signup is awaiting platform configuration on both routes', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const headers = { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id };
    const config = await t.http().get('/api/meta/signup/config').set(headers);
    expect([config.status, config.body]).toEqual([503, { error: 'customer signup is awaiting platform configuration' }]);
    const signup = await t.http().post('/api/meta/signup').set(headers).send({ code: 'AQx', waba_id: '1', phone_number_id: '2' });
    expect([signup.status, signup.body]).toEqual([503, { error: 'customer signup is awaiting platform configuration' }]);
  });
});
