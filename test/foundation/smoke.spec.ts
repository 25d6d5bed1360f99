import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('health', async () => {
    const res = await t.http().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
  });

  it('404', async () => {
    const res = await t.http().get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not found', code: 'not_found' });
  });

  it('malformed', async () => {
    const res = await t.http().post('/api/health').set('Content-Type', 'application/json').send('{bad');
    console.log(res.status, res.body, res.headers);
  });
});
