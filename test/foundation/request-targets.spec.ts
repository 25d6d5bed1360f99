import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rawRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const NOT_FOUND = { error: 'not found', code: 'not_found' };

/**
 * Only a plain origin-form path (`/api/…`) reaches a route. An absolute-form target
 * (`GET http://host/api/…`, meant for proxies) or a path starting with `//` must not be
 * normalised onto a route: 404 in the contract's shape, without echoing the target.
 */
describe('request targets that are not a plain path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (target: string, method = 'GET') =>
    rawRequest(t.app.getHttpServer(), `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

  it('a plain path reaches its route (control)', async () => {
    const res = await get('/api/health');
    expect(res.status).toBe(200);
  });

  it.each([
    'http://127.0.0.1/api/health',
    'http://other.example/api/health',
    'https://other.example:8443/api/openapi.json',
    'HTTP://127.0.0.1/api/health?x=1',
    '//api/health',
    '//other.example/api/health',
    '///api/health',
    '//api/openapi.json',
    '//',
  ])('GET %s is 404 not_found JSON and never echoes the target', async (target) => {
    const res = await get(target);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual(NOT_FOUND);
    expect(res.body).not.toContain('other.example');
    expect(res.headers['location']).toBeUndefined();
  });

  it('a POST to an absolute-form target is 404 too (never reaches a route)', async () => {
    const res = await rawRequest(
      t.app.getHttpServer(),
      'POST http://127.0.0.1/api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual(NOT_FOUND);
  });
});
