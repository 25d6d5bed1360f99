import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { sha256Hex } from '../../src/infra/crypto/hashing.js';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { LogCapture } from '../support/log-capture.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type AccessFixtures, buildFixtures, callers, send } from './support/access-fixtures.js';
import { AccessProbeController } from './support/access-probe.controller.js';

@Controller('test-secrecy')
class FailingController {
  /** A 500, whose error log names the request: the URL must not carry a key into the log. */
  @Public()
  @Get('boom')
  boom(): never {
    throw new Error('boom');
  }

  @Get('member-boom')
  memberBoom(): never {
    throw new Error('boom');
  }

  @Public()
  @Get('boom/:anything')
  boomWithParam(): never {
    throw new Error('boom');
  }
}

describe('API keys never appear in logs or in responses after creation', () => {
  let t: TestApp;
  let x: AccessFixtures;
  const capture = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, controllers: [AccessProbeController, FailingController], customize: capture.customize });
    x = await buildFixtures(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs requests made with keys, everywhere a key can be put, without the key', async () => {
    const as = callers(x);
    const created = await send(t, 'POST', '/api/keys', { ...as.owner, body: { name: 'logged', scope: 'write' } });
    expect(created.status).toBe(201);
    const fresh: string = created.body.key;
    const keys = [fresh, x.readKey, x.writeKey, x.expiredKey, x.revokedKey, x.otherKey];
    const withFresh = { Authorization: `Bearer ${fresh}` };

    await send(t, 'GET', '/test-access/member', { headers: withFresh });
    await send(t, 'POST', '/test-access/member', { headers: withFresh, body: { note: fresh } });
    await send(t, 'GET', '/test-access/member', { headers: withFresh, query: { tenant: x.b.id } });
    for (const name of ['readKey', 'writeKey', 'expiredKey', 'revokedKey', 'otherKey', 'lowercaseBearer', 'xApiKey'] as const) {
      await send(t, 'GET', '/test-access/member', as[name]);
    }
    await send(t, 'GET', '/test-access/member', { query: { access_token: fresh } });
    await send(t, 'POST', '/test-access/member', { body: { access_token: fresh } });
    await send(t, 'GET', '/test-secrecy/boom', { query: { access_token: fresh } });
    await send(t, 'GET', '/test-secrecy/boom', { headers: withFresh });
    await send(t, 'GET', '/test-secrecy/member-boom', { headers: withFresh, query: { api_key: fresh } });
    await send(t, 'DELETE', `/api/keys/${created.body.id}`, as.owner);
    await send(t, 'GET', '/test-access/member', { headers: withFresh });
    await new Promise((resolve) => setTimeout(resolve, 100)); // fire-and-forget writes and their logs

    const log = capture.text();
    // The capture works: requests were logged, including the 500s.
    expect(log).toContain('/test-access/member');
    expect(log).toContain('"statusCode":500');
    for (const key of keys) {
      expect(log).not.toContain(key.slice('pk_live_'.length + 8)); // the secret part, past the shown prefix
      expect(log).not.toContain(sha256Hex(key));
    }
  });

  it('masks a key pasted into the URL path in request and error logs', async () => {
    const { key } = await t.factories.apiKey(x.a.id, 'write');
    const secret = key.slice('pk_live_'.length + 8);
    const before = capture.lines.length;
    const unknown = await send(t, 'DELETE', `/api/keys/${key}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(unknown.status).toBe(403); // console route: a key cannot administer
    await send(t, 'GET', `/no-such-route/${key}`, {});
    const failed = await send(t, 'GET', `/test-secrecy/boom/${key}`, {});
    expect(failed.status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const log = capture.lines
      .slice(before)
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(log).toContain('"msg":"request failed"');
    expect(log).toContain('pk_live_[redacted]');
    expect(log).not.toContain(secret);
  });

  it('never returns a key or its hash after creation', async () => {
    const as = callers(x);
    const created = await send(t, 'POST', '/api/keys', { ...as.owner, body: { name: 'once', scope: 'read' } });
    const secret = (created.body.key as string).slice(16);
    const responses = [
      await send(t, 'GET', '/api/keys', as.owner),
      await send(t, 'GET', '/test-access/member', { headers: { Authorization: `Bearer ${created.body.key}` } }),
      await send(t, 'DELETE', `/api/keys/${created.body.id}`, as.owner),
      await send(t, 'GET', '/api/keys', as.admin),
      await send(t, 'GET', '/test-access/member', { headers: { Authorization: `Bearer ${created.body.key}` } }),
    ];
    for (const res of responses) {
      const text = JSON.stringify(res.body) + JSON.stringify(res.headers);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(sha256Hex(created.body.key));
    }
  });
});
