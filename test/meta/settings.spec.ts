import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPH_ERRORS } from '../fakes/graph-api/index.js';
import { connectedWorkspace, createMetaTestApp, graphId, type MetaTestApp, ownerHeaders } from './meta-support.js';

describe('cloud channel settings (/api/meta/settings)', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const owner = (): Promise<Record<string, string>> => ownerHeaders(m);

  function number(token = `tok-${graphId()}`): { phoneNumberId: string; wabaId: string; token: string } {
    const phoneNumberId = graphId();
    const wabaId = graphId();
    m.graph.world.addNumber({ id: phoneNumberId, wabaId, displayPhoneNumber: '+1 555-078-3881', verifiedName: 'Acme Ltd' }, token);
    return { phoneNumberId, wabaId, token };
  }

  const put = (headers: Record<string, string>, body: Record<string, unknown>) => m.t.http().put('/api/meta/settings').set(headers).send(body);

  it('answers an unconfigured workspace with empty settings', async () => {
    const res = await m.t
      .http()
      .get('/api/meta/settings')
      .set(await owner());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      phone_number_id: null,
      waba_id: null,
      display_phone_number: '',
      verified_name: '',
      connected: false,
      token_set: false,
      error: null,
    });
  });

  it('checks the number with the provider, subscribes the app, and stores the token encrypted, never returning it', async () => {
    const headers = await owner();
    const n = number();
    m.graph.reset();
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: n.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      phone_number_id: n.phoneNumberId,
      waba_id: n.wabaId,
      display_phone_number: '+1 555-078-3881',
      verified_name: 'Acme Ltd',
      connected: true,
      token_set: true,
      error: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(n.token);
    const calls = m.graph.requests.map((r) => `${r.method} ${r.path} ${r.token === n.token ? 'token' : 'no token'}`);
    expect(calls).toEqual([`GET /${n.phoneNumberId} token`, `GET /${n.wabaId}/phone_numbers token`, `POST /${n.wabaId}/subscribed_apps token`]);
    expect(m.graph.requests.every((r) => !JSON.stringify(r.query).includes(n.token))).toBe(true);

    const stored: { access_token: string }[] = await m.t.dataSource.query(`SELECT access_token FROM meta_settings WHERE workspace_id = $1`, [
      headers['X-Tenant-ID'],
    ]);
    expect(stored[0]!.access_token).not.toContain(n.token);
    expect(stored[0]!.access_token).toMatch(/^v1\./);
    const read = await m.t.http().get('/api/meta/settings').set(headers);
    expect(read.body).toEqual(res.body);
  });

  it('answers a token the provider refuses with 502 and the provider fields; nothing is saved', async () => {
    const headers = await owner();
    const n = number();
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: 'not-a-token' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'provider rejected the settings: Invalid OAuth access token - Cannot parse access token', provider_code: 190 });
    expect((await m.t.http().get('/api/meta/settings').set(headers)).body.token_set).toBe(false);
  });

  it('passes code, subcode and title of a provider error on', async () => {
    const headers = await owner();
    const n = number();
    m.graph.failNext({ path: `/${n.phoneNumberId}` }, GRAPH_ERRORS.expiredToken);
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: n.token });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: 'provider rejected the settings: Your session has expired. Please log in again.',
      provider_code: 190,
      provider_subcode: 463,
      provider_title: 'Session expired',
    });
  });

  it('answers a subscription the provider answers with success: false with 502; nothing is saved', async () => {
    const headers = await owner();
    const n = number();
    m.graph.answerNext({ path: `/${n.wabaId}/subscribed_apps` }, 200, '{"success":false}');
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: n.token });
    expect([res.status, res.body]).toEqual([502, { error: 'provider rejected the settings: the app could not be subscribed to the WABA (success: false)' }]);
    expect((await m.t.http().get('/api/meta/settings').set(headers)).body).toMatchObject({ phone_number_id: null, token_set: false });
  });

  it('answers a provider that answers garbage with 502, and one that cannot be reached with 503 (a dependency is down, not a refusal)', async () => {
    const headers = await owner();
    const n = number();
    m.graph.answerNext({ path: `/${n.phoneNumberId}` }, 502, '<html>Bad Gateway</html>');
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: n.token });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'provider rejected the settings: the provider answered HTTP 502 without an error object' });
    m.graph.dropNext({ path: `/${n.phoneNumberId}` });
    const unreachable = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: n.wabaId, access_token: n.token });
    expect([unreachable.status, unreachable.body]).toEqual([503, { error: 'the provider could not be reached' }]);
    // Nothing was saved.
    expect((await m.t.http().get('/api/meta/settings').set(headers)).body).toMatchObject({ phone_number_id: null, token_set: false });
  });

  it('refuses a number of another WABA with 400', async () => {
    const headers = await owner();
    const n = number();
    const other = graphId();
    m.graph.world.grant(n.token, other);
    m.graph.world.templates.set(other, []);
    const res = await put(headers, { phone_number_id: n.phoneNumberId, waba_id: other, access_token: n.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'phone_number_id is not a number of waba_id' });
  });

  it('refuses a phone_number_id another workspace has with 409, before calling the provider', async () => {
    const taken = await connectedWorkspace(m);
    const headers = await owner();
    m.graph.reset();
    const res = await put(headers, { phone_number_id: taken.phoneNumberId, waba_id: taken.wabaId, access_token: taken.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'this phone number is connected to another workspace' });
    expect(m.graph.requests).toEqual([]);
  });

  it('validates the body', async () => {
    const headers = await owner();
    const cases: [Record<string, unknown>, string][] = [
      [{ waba_id: '1', access_token: 't' }, 'phone_number_id is required'],
      [{}, 'phone_number_id is required; waba_id is required'],
      [
        { phone_number_id: '+15550783881', waba_id: '1', access_token: 't' },
        'phone_number_id must be the numeric id of the number (WhatsApp Manager or the API Setup page)',
      ],
      [{ phone_number_id: '1', waba_id: 12, access_token: 't' }, 'waba_id must be the numeric id of the WhatsApp Business Account'],
      [{ phone_number_id: '1', waba_id: '2', access_token: 'has spaces' }, 'access_token must be a token without spaces'],
      [{ phone_number_id: '1', waba_id: '2' }, 'access_token is required'],
    ];
    for (const [body, error] of cases) {
      const res = await put(headers, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
  });

  it('keeps the stored token when a change leaves it out, and deletes the settings once', async () => {
    const w = await connectedWorkspace(m);
    m.graph.reset();
    const res = await put(w.owner, { phone_number_id: w.phoneNumberId, waba_id: w.wabaId });
    expect(res.status).toBe(200);
    expect(m.graph.requests.every((r) => r.token === w.token)).toBe(true);

    const agent = await m.t.factories.signedInMember(w.workspaceId, 'agent');
    const refused = await m.t.http().get('/api/meta/settings').set({ Cookie: agent.cookie, 'X-Tenant-ID': w.workspaceId });
    expect([refused.status, refused.body]).toEqual([403, { error: 'admin required' }]);

    expect((await m.t.http().delete('/api/meta/settings').set(w.owner)).body).toEqual({ ok: true });
    const again = await m.t.http().delete('/api/meta/settings').set(w.owner);
    expect([again.status, again.body]).toEqual([404, { error: 'cloud channel settings not found' }]);
    expect((await m.t.http().get('/api/meta/settings').set(w.owner)).body.phone_number_id).toBeNull();
  });
});
