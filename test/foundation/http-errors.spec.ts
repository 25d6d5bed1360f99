import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { IsInt, IsNotEmpty, IsString, Min } from 'class-validator';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

class EchoDto {
  @IsString()
  @IsNotEmpty()
  name: string;

  @IsInt()
  @Min(1)
  count: number;
}

/** Test-only route: answers with the DTO exactly as the handler received it. */
@Public()
@Controller('api/test-echo')
class EchoController {
  @Post()
  @HttpCode(200)
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }
}

const NOT_FOUND = { error: 'not found', code: 'not_found' };

describe('HTTP error shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ controllers: [EchoController], env: { BODY_LIMIT: '1kb' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['/api/no-such-route', '/api/health/extra', '/api/v2/conversations'])(
    'answers an unknown path (%s) with 404 not_found and a request id',
    async (path) => {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    },
  );

  it.each(['delete', 'put', 'patch', 'post'] as const)('answers a method no route has on a known path (%s /api/health) with 404, never 405', async (method) => {
    const res = await t.http()[method]('/api/health');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('answers malformed JSON with 400 "malformed JSON body"', async () => {
    const res = await t.http().post('/api/test-echo').set('Content-Type', 'application/json').send('{"name": "a",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'malformed JSON body' });
  });

  it('answers a bare JSON value (well-formed, but no object) with 400 "request body must be a JSON object"', async () => {
    for (const body of ['"x"', '5', '-1.5e3', 'null', 'true', ' false ']) {
      const res = await t.http().post('/api/test-echo').set('Content-Type', 'application/json').send(body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error: 'request body must be a JSON object' }]);
    }
    for (const body of ['"x', 'nul', '5 5', 'tru']) {
      const res = await t.http().post('/api/test-echo').set('Content-Type', 'application/json').send(body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error: 'malformed JSON body' }]);
    }
  });

  it('answers a body over BODY_LIMIT with 413 "payload too large"', async () => {
    const res = await t
      .http()
      .post('/api/test-echo')
      .send({ name: 'x'.repeat(2048), count: 1 });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'payload too large' });
  });

  it('answers a body over BODY_LIMIT with 413 whatever its Content-Type, before authentication', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
      const big = await t.http().post('/api/knowledge').set('Content-Type', type).send('x'.repeat(2048));
      expect([type, big.status, big.body]).toEqual([type, 413, { error: 'payload too large' }]);
    }
    // Under the limit, such a body is refused for its type only once the caller may call the route.
    const small = await t.http().post('/api/knowledge').set('Content-Type', 'text/plain').send('x'.repeat(500));
    expect([small.status, small.body]).toEqual([401, { error: 'unauthorized' }]);
    const allowed = await t.http().post('/api/test-echo').set('Content-Type', 'text/plain').send('x'.repeat(500));
    expect([allowed.status, allowed.body]).toEqual([400, { error: 'request body must be JSON (Content-Type: application/json)' }]);
  });

  it('accepts a body just under the limit', async () => {
    const res = await t
      .http()
      .post('/api/test-echo')
      .send({ name: 'x'.repeat(900), count: 1 });
    expect(res.status).toBe(200);
  });

  it('answers a validation failure with 400 and a readable message naming the fields', async () => {
    const res = await t.http().post('/api/test-echo').send({ name: 42, count: 0 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toContain('name must be a string');
    expect(res.body.error).toContain('count must not be less than 1');
  });

  it('answers a missing body on a route that needs one with 400, not 500', async () => {
    const res = await t.http().post('/api/test-echo');
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.stringContaining('name'));
  });

  it('ignores unknown fields instead of rejecting them', async () => {
    const res = await t.http().post('/api/test-echo').send({ name: 'Ada', count: 2, nickname: 'countess', admin: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Ada', count: 2 });
  });

  it.each([
    ['an unsupported charset', { 'Content-Type': 'application/json; charset=latin9' }],
    ['an unknown content encoding', { 'Content-Type': 'application/json', 'Content-Encoding': 'br2' }],
  ])('answers a body with %s with 400, never 415', async (_what, headers) => {
    const res = await t.http().post('/api/test-echo').set(headers).send('{"name":"a","count":1}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['a JSON string', { name: 'a\u0000b', count: 1 }],
    ['a nested value', { name: 'a', count: 1, extra: { list: ['ok', 'x\u0000'] } }],
    ['a key', { name: 'a', count: 1, ['k\u0000']: 1 }],
  ])('answers a NUL character in %s with 400 (Postgres text cannot hold it)', async (_where, body) => {
    const res = await t.http().post('/api/test-echo').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'text must not contain NUL characters (\\u0000)' });
  });

  it('answers a NUL character in the query string with 400', async () => {
    const res = await t.http().get('/api/health?probe=a%00b');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'text must not contain NUL characters (\\u0000)' });
  });
});
