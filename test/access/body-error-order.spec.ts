import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import type { Test } from 'supertest';
import { RateLimiter } from '../../src/modules/auth/rate-limit/rate-limiter.service.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The contract's texts (docs/contract.md#errors, docs/api.md#errors), verbatim.
const UNAUTHORIZED = { error: 'unauthorized' };
const INVALID_KEY = { error: 'invalid or expired API key' };
const NOT_FOUND = { error: 'not found', code: 'not_found' };
const NO_ADMIN_KEYS = { error: 'API keys cannot administer workspaces' };
const ADMIN_REQUIRED = { error: 'admin required' };
const READ_ONLY = { error: 'API key is read-only' };
const WORKSPACE_REQUIRED = { error: 'workspace required (X-Tenant-ID)' };
const MALFORMED = { error: 'malformed JSON body' };
const NOT_JSON = { error: 'request body must be JSON (Content-Type: application/json)' };
const TOO_DEEP = { error: 'JSON body nested too deeply (at most 64 levels)' };
const TOO_MANY_FIELDS = { error: 'JSON object has too many fields (at most 1000)' };
const NOT_UTF8 = { error: 'JSON body must be valid UTF-8' };
const NUL = { error: 'text must not contain NUL characters (\\u0000)' };
const ILL_FORMED = { error: 'text must be well-formed Unicode (no lone surrogates)' };

/** A request body that is wrong as a body, whatever the route: [what, its headers, bytes, the 400 it gets]. */
type BadBody = [string, Record<string, string>, string | Buffer, { error: string }];

const JSON_TYPE = { 'Content-Type': 'application/json' };
const compressed = (encoding: string) => ({ ...JSON_TYPE, 'Content-Encoding': encoding });
const NOT_DECOMPRESSED = (encoding: string) => ({ error: `request body could not be decompressed (Content-Encoding: ${encoding})` });

const BAD_BODIES: BadBody[] = [
  ['malformed JSON', JSON_TYPE, '{bad', MALFORMED],
  ['a text/plain body', { 'Content-Type': 'text/plain' }, '{bad', NOT_JSON],
  ['a form body', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=x', NOT_JSON],
  ['JSON nested too deeply', JSON_TYPE, '['.repeat(65) + ']'.repeat(65), TOO_DEEP],
  ['an object with too many fields', JSON_TYPE, JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, 1]))), TOO_MANY_FIELDS],
  ['bytes that are not UTF-8', JSON_TYPE, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), NOT_UTF8],
  ['a NUL character', JSON_TYPE, '{"name":"a\\u0000b"}', NUL],
  ['a lone surrogate', JSON_TYPE, '{"name":"\\ud800"}', ILL_FORMED],
  ['a gzip body that is not gzip', compressed('gzip'), 'xx', NOT_DECOMPRESSED('gzip')],
  ['a truncated gzip body', compressed('gzip'), gzipSync('{"name":"a","phone":"+4915112345678"}').subarray(0, 12), NOT_DECOMPRESSED('gzip')],
  ['a corrupt deflate body', compressed('deflate'), 'xx', NOT_DECOMPRESSED('deflate')],
  ['a corrupt brotli body', compressed('br'), 'garbage!!', NOT_DECOMPRESSED('br')],
  ['an unknown content encoding', compressed('zstd'), 'xx', { error: 'unsupported content encoding "zstd"' }],
];

/**
 * docs/api.md's check order: authentication (401) → … → role (403) → subscription (402) → input
 * validation (400). A body that is wrong as a body (malformed JSON, another Content-Type, the JSON
 * shape limits, text Postgres cannot store) is input: it is answered at the input-validation step,
 * after the guard chain, and an unknown path is 404 whatever its body.
 */
describe('body errors come after authentication, routing and roles', () => {
  let t: TestApp;
  let key: string;
  let readKey: string;
  let workspaceId: string;
  let ownerCookie: string;
  let agent: { id: string; cookie: string };
  let inbox: InboxFactories;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    const setup = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    key = setup.key;
    workspaceId = setup.workspace.id;
    ownerCookie = setup.owner.cookie;
    agent = await t.factories.signedInMember(workspaceId, 'agent');
    readKey = (await t.factories.apiKey(workspaceId, 'read')).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  // The bytes exactly as given (superagent would serialize a Buffer as JSON).
  const withBody = (request: Test, headers: string | Record<string, string>, body: string | Buffer): Test =>
    request
      .set(typeof headers === 'string' ? { 'Content-Type': headers } : headers)
      .serialize(() => body as unknown as string)
      .send(typeof body === 'string' ? body : {});
  const answer = async (request: Test): Promise<[number, unknown]> => {
    const res = await request;
    return [res.status, res.body];
  };

  describe('the repros', () => {
    it('POST /api/contacts without credentials, malformed JSON → 401 unauthorized', async () => {
      expect(await answer(withBody(t.http().post('/api/contacts'), 'application/json', '{bad'))).toEqual([401, UNAUTHORIZED]);
    });

    it('POST /api/contacts without credentials, text/plain → 401 unauthorized', async () => {
      expect(await answer(withBody(t.http().post('/api/contacts'), 'text/plain', '{bad'))).toEqual([401, UNAUTHORIZED]);
    });

    it('POST /api/nope with malformed JSON → 404 not_found', async () => {
      expect(await answer(withBody(t.http().post('/api/nope'), 'application/json', '{bad'))).toEqual([404, NOT_FOUND]);
    });

    it('POST /api/chat/connect with an API key, text/plain → 403 API keys cannot administer workspaces', async () => {
      const request = t.http().post('/api/chat/connect').set('Authorization', `Bearer ${key}`);
      expect(await answer(withBody(request, 'text/plain', 'x'))).toEqual([403, NO_ADMIN_KEYS]);
    });

    it('PATCH /api/members/:id as an agent, malformed JSON → 403 admin required', async () => {
      const request = t.http().patch(`/api/members/${agent.id}`).set('Cookie', agent.cookie).set('X-Tenant-ID', workspaceId);
      expect(await answer(withBody(request, 'application/json', '{bad'))).toEqual([403, ADMIN_REQUIRED]);
    });

    it('an authenticated, allowed request with malformed JSON still gets 400 malformed JSON body, and nothing is created', async () => {
      const request = t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`);
      expect(await answer(withBody(request, 'application/json', '{bad'))).toEqual([400, MALFORMED]);
      expect(await inbox.count('contacts WHERE workspace_id = $1', [workspaceId])).toBe(0);
    });
  });

  describe.each(BAD_BODIES)('%s', (_what, type, body, refusal) => {
    it('without credentials → 401 unauthorized', async () => {
      expect(await answer(withBody(t.http().post('/api/contacts'), type, body))).toEqual([401, UNAUTHORIZED]);
    });

    it('with a revoked or unknown key → 401 invalid or expired API key', async () => {
      const request = t
        .http()
        .post('/api/contacts')
        .set('Authorization', `Bearer pk_live_${'0'.repeat(48)}`);
      expect(await answer(withBody(request, type, body))).toEqual([401, INVALID_KEY]);
    });

    it('on an unknown path → 404 not_found', async () => {
      expect(await answer(withBody(t.http().post('/api/nope').set('Authorization', `Bearer ${key}`), type, body))).toEqual([404, NOT_FOUND]);
    });

    it('a method no route has on a known path → 404 not_found', async () => {
      expect(await answer(withBody(t.http().put('/api/contacts').set('Authorization', `Bearer ${key}`), type, body))).toEqual([404, NOT_FOUND]);
    });

    it('with a read key on a write route → 403 API key is read-only', async () => {
      const request = t.http().post('/api/contacts').set('Authorization', `Bearer ${readKey}`);
      expect(await answer(withBody(request, type, body))).toEqual([403, READ_ONLY]);
    });

    it('a session without a workspace → 400 workspace required (the selection comes first)', async () => {
      expect(await answer(withBody(t.http().post('/api/contacts').set('Cookie', ownerCookie), type, body))).toEqual([400, WORKSPACE_REQUIRED]);
    });

    it('an agent on an admin route → 403 admin required', async () => {
      const request = t.http().patch('/api/workspace').set('Cookie', agent.cookie).set('X-Tenant-ID', workspaceId);
      expect(await answer(withBody(request, type, body))).toEqual([403, ADMIN_REQUIRED]);
    });

    it('once every check has passed → its own 400', async () => {
      const request = t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`);
      expect(await answer(withBody(request, type, body))).toEqual([400, refusal]);
    });

    it('also on a route that takes no body, and before its id is validated', async () => {
      const request = t.http().post('/api/conversations/not-an-id/read').set('Authorization', `Bearer ${key}`);
      expect(await answer(withBody(request, type, body))).toEqual([400, refusal]);
    });

    it('on a public route → 400', async () => {
      // The login route allows 10 attempts a minute per address, and there are more bad bodies.
      t.app.get(RateLimiter).reset();
      expect(await answer(withBody(t.http().post('/api/auth/login'), type, body))).toEqual([400, refusal]);
    });
  });

  it('a NUL character in the query string is answered after authentication too, and 404 on an unknown path', async () => {
    expect(await answer(t.http().get('/api/contacts?q=a%00b'))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(t.http().get('/api/nope?q=a%00b'))).toEqual([404, NOT_FOUND]);
    expect(await answer(t.http().get('/api/contacts?q=a%00b').set('Authorization', `Bearer ${key}`))).toEqual([400, NUL]);
  });

  it('the OpenAPI document and explorer (not Nest routes) refuse a bad body as before', async () => {
    expect(await answer(withBody(t.http().get('/api/openapi.json'), 'application/json', '{bad'))).toEqual([400, MALFORMED]);
    expect(await answer(withBody(t.http().get('/api/docs'), 'text/plain', 'x'))).toEqual([400, NOT_JSON]);
  });

  it('a body over the size limit is still 413 before anything else', async () => {
    const res = await t
      .http()
      .post('/api/contacts')
      .set('Content-Type', 'application/json')
      .send(`{"name":"${'x'.repeat(6 * 1024 * 1024)}"}`);
    expect([res.status, res.body]).toEqual([413, { error: 'payload too large' }]);
  });
});
