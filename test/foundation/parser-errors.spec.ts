import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { LogCapture } from '../support/log-capture.js';
import { rawRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const NOT_FOUND = { error: 'not found', code: 'not_found' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const capture = new LogCapture();

describe('errors from below the application', () => {
  let t: TestApp;
  let server: Server;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'info' }, customize: capture.customize });
    server = t.app.getHttpServer() as Server;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['headers over 16 KB', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request headers too large'],
    ['an unknown method', 'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'malformed HTTP request'],
    [
      'raw bytes in the path',
      Buffer.concat([Buffer.from('GET /api/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
      400,
      'malformed HTTP request',
    ],
    ['garbage instead of a request line', 'hello\r\n\r\n', 400, 'malformed HTTP request'],
    [
      'an Expect other than 100-continue',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n{}',
      400,
      'unsupported Expect header',
    ],
  ])('answers %s in the contract shape, with a request id, and logs it', async (_name, request, status, error) => {
    const res = await rawRequest(server, request);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error });
    const id = res.headers['x-request-id']!;
    expect(id).toMatch(UUID);
    const line = await capture.waitFor((l) => JSON.stringify(l).includes(id));
    expect(line).toMatchObject({ level: 30, res: { statusCode: status } });
  });

  it.each([
    ['GET * HTTP/1.1', 'GET'],
    ['POST http://evil.example/api/health HTTP/1.1', 'POST'],
    ['GET http://evil.example/api/nothing-here HTTP/1.1', 'GET'],
  ])('answers an unknown request target (%s) with 404 not_found, never echoing it', async (requestLine) => {
    const res = await rawRequest(server, `${requestLine}\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual(NOT_FOUND);
    expect(res.body).not.toContain('evil');
  });

  it('answers every preflight 204, also with a NUL in its query string', async () => {
    for (const path of ['/api/health?x=%00', '/api/health?x=%ED%A0%80', '/api/auth/login?x=%00']) {
      const res = await t.http().options(path).set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'POST');
      expect([path, res.status]).toEqual([path, 204]);
    }
  });

  it('logs the 503 of the unconfigured Google sign-in as one warning without a stack', async () => {
    const res = await t.http().get('/api/auth/google/start');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'Google sign-in is not configured' });
    const id = res.headers['x-request-id'] as string;
    await capture.waitFor((line) => JSON.stringify(line).includes(id) && line.msg === 'request completed');
    const lines = capture.mentioning(id);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });
});
