import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type supertest from 'supertest';
import { ConfigError, loadConfig } from '../../src/infra/config/app-config.js';
import { createChatApp, type ChatCaller, type ChatTestApp } from './chat-support.js';

/** Issue 37: `GET`/`PUT`/`DELETE /api/chat/proxy` and `WA_PROXY_URL` (the socket's use of it: test/e2e/scan-channel-proxy*.spec.ts). */

type Who = 'readKey' | 'writeKey' | 'owner' | 'admin' | 'agent' | 'outsider' | 'none';
type Method = 'get' | 'put' | 'delete';

function call(t: ChatTestApp, caller: ChatCaller, method: Method, body?: object): supertest.Test {
  let request = t.http()[method]('/api/chat/proxy');
  if (caller !== 'none') {
    request =
      'key' in caller ? request.set('Authorization', `Bearer ${caller.key}`) : request.set('Cookie', caller.cookie).set('X-Tenant-ID', caller.workspaceId);
  }
  return body ? request.send(body) : request;
}

const HINT = 'url must be a proxy URL: http://, https:// or socks5://, then [user:password@]host[:port], e.g. socks5://user:password@proxy.example.com:1080';
const BAD_URLS: [string, unknown, string][] = [
  ['no url', undefined, 'url is required'],
  ['null', null, 'url is required'],
  ['a number', 1080, HINT],
  ['not a URL', 'proxy.example.com:1080', HINT],
  ['an empty string', '', HINT],
  ['spaces inside', 'socks5://us er@proxy.example.com', HINT],
  ['another scheme', 'ftp://proxy.example.com:21', 'url must start with http://, https:// or socks5://'],
  ['socks4', 'socks4://proxy.example.com:1080', 'url must start with http://, https:// or socks5://'],
  ['a path', 'http://proxy.example.com:8080/path', "url must be the proxy's address only ([user:password@]host[:port]): no path, query or fragment"],
  ['a query', 'socks5://proxy.example.com?x=1', "url must be the proxy's address only ([user:password@]host[:port]): no path, query or fragment"],
  ['a fragment', 'http://proxy.example.com#top', "url must be the proxy's address only ([user:password@]host[:port]): no path, query or fragment"],
  ['port 0', 'socks5://proxy.example.com:0', 'url has an invalid port: 1-65535'],
  ['port 70000', 'http://proxy.example.com:70000', 'url has an invalid port: 1-65535'],
  ['a port that is no number', 'socks5://proxy.example.com:ab', 'url has an invalid port: 1-65535'],
  ['no host', 'socks5://', 'url must name the proxy host: a host name, an IPv4 address or an [IPv6] address'],
  ['a bad host', 'socks5://pro%78y.example.com', 'url must name the proxy host: a host name, an IPv4 address or an [IPv6] address'],
  ['broken escapes', 'socks5://user:%zz@proxy.example.com', 'url has a user name or password that is not valid percent-encoding'],
  ['a socks5 password of 256 bytes', `socks5://u:${'p'.repeat(256)}@proxy.example.com`, 'a socks5:// user name and password are at most 255 bytes each'],
  ['the mask sent back', 'socks5://user:***@proxy.example.com:1080', 'url has *** in place of a credential: give the real one'],
  ['too long', `http://${'a'.repeat(2050)}.example.com`, 'url must be at most 2048 characters'],
];

describe('the egress proxy routes', () => {
  let t: ChatTestApp;
  let workspaceId: string;
  let callers: Record<Who, ChatCaller>;

  beforeAll(async () => {
    t = await createChatApp();
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    workspaceId = workspace.id;
    const session = async (role: 'admin' | 'agent'): Promise<ChatCaller> => ({
      cookie: (await t.factories.signedInMember(workspace.id, role)).cookie,
      workspaceId,
    });
    callers = {
      readKey: { key: (await t.factories.apiKey(workspace.id, 'read')).key },
      writeKey: { key },
      owner: { cookie: owner.cookie, workspaceId },
      admin: await session('admin'),
      agent: await session('agent'),
      outsider: { cookie: await t.factories.sessionCookie((await t.factories.user()).id), workspaceId },
      none: 'none',
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each<Method>(['get', 'put', 'delete'])('%s refuses API keys, agents, non-members and anonymous callers, as connect does', async (method) => {
    const denials: [Who, number, string][] = [
      ['readKey', 403, 'API keys cannot administer workspaces'],
      ['writeKey', 403, 'API keys cannot administer workspaces'],
      ['agent', 403, 'admin required'],
      ['outsider', 403, 'forbidden'],
      ['none', 401, 'unauthorized'],
    ];
    for (const [who, status, error] of denials) {
      const res = await call(t, callers[who], method, method === 'put' ? { url: 'socks5://proxy.example.com' } : undefined);
      expect({ who, status: res.status, body: res.body }).toEqual({ who, status, body: { error } });
    }
    expect(await t.dataSource.query('SELECT 1 FROM scan_proxies WHERE workspace_id = $1', [workspaceId])).toEqual([]);
  });

  it('an owner sets it (answered masked, in one spelling), an admin replaces and removes it; a second DELETE is 404', async () => {
    expect((await call(t, callers.owner, 'get')).body).toEqual({ url: null, source: 'none' });
    const set = await call(t, callers.owner, 'put', { url: ' SOCKS5://Proxy-User:s3cr%40t@Proxy.Example.COM ' });
    expect([set.status, set.body]).toEqual([200, { url: 'socks5://Proxy-User:***@proxy.example.com:1080', source: 'number' }]);
    expect((await call(t, callers.agent, 'get')).status).toBe(403);
    expect((await call(t, callers.admin, 'get')).body).toEqual({ url: 'socks5://Proxy-User:***@proxy.example.com:1080', source: 'number' });

    const [row] = (await t.dataSource.query('SELECT sealed_url FROM scan_proxies WHERE workspace_id = $1', [workspaceId])) as { sealed_url: string }[];
    expect(row!.sealed_url).not.toMatch(/proxy|s3cr|1080/i);

    // A token as user name alone is masked whole; default ports are written out.
    const token = await call(t, callers.admin, 'put', { url: 'https://tok3n@[2001:db8::1]' });
    expect(token.body).toEqual({ url: 'https://***@[2001:db8::1]:443', source: 'number' });
    expect((await call(t, callers.admin, 'put', { url: 'http://10.0.0.8:3128' })).body).toEqual({ url: 'http://10.0.0.8:3128', source: 'number' });

    const removed = await call(t, callers.admin, 'delete');
    expect([removed.status, removed.body]).toEqual([200, { ok: true }]);
    expect((await call(t, callers.owner, 'get')).body).toEqual({ url: null, source: 'none' });
    const again = await call(t, callers.owner, 'delete');
    expect([again.status, again.body]).toEqual([404, { error: 'proxy not found' }]);
  });

  it.each(BAD_URLS)('%s → 400 with the reason, and the stored proxy stays', async (_what, url, error) => {
    await call(t, callers.owner, 'put', { url: 'http://keep.example.com:3128' });
    const res = await call(t, callers.owner, 'put', url === undefined ? {} : { url });
    expect([res.status, res.body]).toEqual([400, { error }]);
    expect((await call(t, callers.owner, 'get')).body).toEqual({ url: 'http://keep.example.com:3128', source: 'number' });
  });
});

describe('WA_PROXY_URL: the default proxy of every number', () => {
  let t: ChatTestApp;
  let owner: ChatCaller;

  beforeAll(async () => {
    t = await createChatApp({ env: { WA_PROXY_URL: 'http://ops:hunter2@egress.internal:3128' } });
    const created = await t.factories.workspaceWithOwner();
    owner = { cookie: created.owner.cookie, workspaceId: created.workspace.id };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("applies to a number without its own, masked; the number's own replaces it until deleted", async () => {
    expect((await call(t, owner, 'get')).body).toEqual({ url: 'http://ops:***@egress.internal:3128', source: 'default' });
    expect((await call(t, owner, 'put', { url: 'socks5://10.1.2.3' })).body).toEqual({ url: 'socks5://10.1.2.3:1080', source: 'number' });
    expect((await call(t, owner, 'delete')).body).toEqual({ ok: true });
    expect((await call(t, owner, 'get')).body).toEqual({ url: 'http://ops:***@egress.internal:3128', source: 'default' });
  });

  it('is checked at start-up like a PUT, and never quoted (it may hold a password)', () => {
    const refusal = (value: string): string => {
      try {
        loadConfig({ WA_PROXY_URL: value });
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      throw new Error(`WA_PROXY_URL=${value} was accepted`);
    };
    expect(refusal('ftp://ops:hunter2@egress.internal')).toContain('WA_PROXY_URL must start with http://, https:// or socks5:// (value not shown)');
    expect(refusal('socks5://ops:hunter2@egress.internal/x')).toContain("WA_PROXY_URL must be the proxy's address only");
    expect(refusal('ftp://ops:hunter2@egress.internal')).not.toContain('hunter2');
    expect(loadConfig({ WA_PROXY_URL: 'socks5://egress.internal' }).waProxy).toMatchObject({ protocol: 'socks5', host: 'egress.internal', port: 1080 });
  });
});
