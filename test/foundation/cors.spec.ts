import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, Authorization, X-Tenant-ID';

function preflight(t: TestApp, path: string, origin?: string) {
  const req = t.http().options(path).set('Access-Control-Request-Method', 'POST');
  return origin ? req.set('Origin', origin) : req;
}

describe('CORS with the default CORS_ORIGINS (*)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['/api/health', '/api/conversations/123/messages', '/api/no-such-route', '/anything/at/all'])(
    'answers OPTIONS %s with 204 and exactly the contract headers',
    async (path) => {
      const res = await preflight(t, path, 'https://app.example');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe(ALLOW_METHODS);
      expect(res.headers['access-control-allow-headers']).toBe(ALLOW_HEADERS);
      expect(res.headers).not.toHaveProperty('access-control-expose-headers');
      expect(res.headers).not.toHaveProperty('access-control-allow-credentials');
      expect(res.text).toBe('');
    },
  );

  it('answers OPTIONS with 204 even without an Origin header', async () => {
    const res = await t.http().options('/api/health');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe(ALLOW_METHODS);
  });

  it('lets any origin read ordinary responses', async () => {
    const res = await t.http().get('/api/health').set('Origin', 'https://anywhere.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers).not.toHaveProperty('access-control-allow-credentials');
  });
});

describe('CORS with CORS_ORIGINS set to a list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example, https://admin.example' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['https://app.example', 'https://admin.example'])('echoes the allowed origin %s', async (origin) => {
    const preflightRes = await preflight(t, '/api/health', origin);
    expect(preflightRes.status).toBe(204);
    expect(preflightRes.headers['access-control-allow-origin']).toBe(origin);
    expect(preflightRes.headers['access-control-allow-methods']).toBe(ALLOW_METHODS);
    expect(preflightRes.headers).not.toHaveProperty('access-control-allow-credentials');

    const res = await t.http().get('/api/health').set('Origin', origin);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('does not grant a foreign origin', async () => {
    const preflightRes = await preflight(t, '/api/health', 'https://evil.example');
    expect(preflightRes.status).toBe(204);
    expect(preflightRes.headers).not.toHaveProperty('access-control-allow-origin');

    const res = await t.http().get('/api/health').set('Origin', 'https://evil.example');
    expect(res.headers).not.toHaveProperty('access-control-allow-origin');
  });
});
