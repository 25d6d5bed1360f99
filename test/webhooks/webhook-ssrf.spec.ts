import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { addressRefusal } from '../../src/infra/net/address-policy.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { createInboundTestApp, eventually } from '../chat/inbound-support.js';
import { ownedWorkspace, type Owned, Receiver } from './webhook-support.js';

const PRIVATE = 'url points to a private or internal address';

/**
 * A host name (not `localhost`, which is refused by name) that this machine resolves to an
 * internal address through /etc/hosts, such as its own host name: a name whose DNS answer, not
 * its spelling, must get it refused. Null when the hosts file has none.
 */
function internalName(): string | null {
  let hosts: string;
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return null;
  }
  for (const line of hosts.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || addressRefusal(address) === null || addressRefusal(address) === 'not an IP address') continue;
    const name = names.find((n) => /^[a-z0-9.-]+$/i.test(n) && !/localhost/i.test(n));
    if (name) return name;
  }
  return null;
}
const byDns = internalName();

describe('webhook URLs: private and internal addresses are refused at creation and at delivery', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  let owned: Owned;
  beforeAll(async () => {
    // http allowed, so that every refusal below is about the address alone.
    [s, receiver] = await Promise.all([createInboundTestApp({ ALLOW_HTTP_WEBHOOKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms' }), Receiver.start()]);
    owned = await ownedWorkspace(s.t);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('refuses loopback, private, link-local, CGNAT, multicast and mapped or re-spelled addresses, and names resolving to them', async () => {
    const urls = [
      'http://127.0.0.1/hook',
      'https://127.0.0.1:8443/hook',
      'http://10.0.0.5/hook',
      'http://172.20.1.1/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.1.1/hook',
      'http://224.0.0.251/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[::]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://[fe80::1]/hook',
      'http://[fd00::1]/hook',
      'http://[64:ff9b::a00:1]/hook',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      `http://localhost:${receiver.port}/hook`,
      'http://LOCALHOST./hook',
      'http://api.localhost/hook',
      ...(byDns ? [`http://${byDns}:${receiver.port}/hook`] : []),
    ];
    for (const url of urls) {
      const res = await owned.as('post', '/api/webhooks').send({ url });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 400, body: { error: PRIVATE } });
    }
    expect((await owned.as('get', '/api/webhooks')).body).toEqual([]);
  });

  it('refuses a private address in a change too, and accepts public addresses and names that do not resolve yet', async () => {
    const ok = await owned.as('post', '/api/webhooks').send({ url: 'https://93.184.215.14/hook' });
    expect(ok.status).toBe(201);
    const moved = await owned.as('patch', `/api/webhooks/${ok.body.id as string}`).send({ url: 'http://[::ffff:10.0.0.1]/' });
    expect([moved.status, moved.body]).toEqual([400, { error: PRIVATE }]);
    expect((await owned.as('post', '/api/webhooks').send({ url: 'https://[2606:4700:4700::1111]/hook' })).status).toBe(201);
    expect((await owned.as('post', '/api/webhooks').send({ url: 'https://not-yet.example.invalid/hook' })).status).toBe(201);
  });

  it('refuses again at delivery (the name may resolve elsewhere by then): nothing reaches the address, the attempt says why', async () => {
    const other = await ownedWorkspace(s.t);
    // Stored as if they had passed at creation (DNS changed since, or the setting was on then).
    const urls = [
      receiver.url('/direct'),
      `http://localhost:${receiver.port}/by-name`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/mapped`,
      `http://2130706433:${receiver.port}/decimal`,
      ...(byDns ? [`http://${byDns}:${receiver.port}/by-dns`] : []),
    ];
    for (const url of urls) {
      await s.t.dataSource.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, $2, '{scan.chat}')`, [other.workspaceId, new URL(url).href]);
    }
    await s.handler.handle(other.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    const attempts = await eventually('every attempt refused', async () => {
      const rows: { url: string; status: string; error: string; response_status: number | null }[] = await s.t.dataSource.query(
        `SELECT w.url, a.status, a.error, a.response_status FROM webhook_attempts a JOIN webhooks w ON w.id = a.webhook_id WHERE a.workspace_id = $1`,
        [other.workspaceId],
      );
      return rows.length === urls.length ? rows : null;
    });
    for (const attempt of attempts) {
      expect(attempt).toEqual({
        url: attempt.url,
        status: 'failed',
        response_status: null,
        error: expect.stringMatching(/^refused: \S+ is a (loopback|private|link-local) address$/),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toEqual([]);
  });
});

describe('webhook URLs: https only unless ALLOW_HTTP_WEBHOOKS', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    [s, receiver] = await Promise.all([createInboundTestApp({ ALLOW_PRIVATE_WEBHOOKS: 'true' }), Receiver.start()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('refuses http:// at creation, and an http:// URL stored earlier at delivery', async () => {
    const owned = await ownedWorkspace(s.t);
    const res = await owned.as('post', '/api/webhooks').send({ url: 'http://hooks.example.com/in' });
    expect([res.status, res.body]).toEqual([400, { error: 'url must be an https:// URL' }]);
    await s.t.dataSource.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, $2, '{scan.chat}')`, [owned.workspaceId, receiver.url('/plain')]);
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    const [attempt] = await eventually('the refused attempt', async () => {
      const rows: { status: string; error: string }[] = await s.t.dataSource.query(`SELECT status, error FROM webhook_attempts WHERE workspace_id = $1`, [
        owned.workspaceId,
      ]);
      return rows.length ? rows : null;
    });
    expect(attempt).toEqual({ status: 'failed', error: 'refused: http:// URLs are not allowed' });
    expect(receiver.received).toEqual([]);
  });
});
