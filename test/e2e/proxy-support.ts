// Requests of the egress-proxy routes, as the Console makes them (an owner's session).
import type supertest from 'supertest';
import type { TestApp } from '../support/test-app.js';
import type { E2eWorkspace } from './e2e-support.js';

export function putProxy(t: TestApp, ws: E2eWorkspace, url: unknown): supertest.Test {
  return t.http().put('/api/chat/proxy').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId).send({ url });
}

export function getProxy(t: TestApp, ws: E2eWorkspace): supertest.Test {
  return t.http().get('/api/chat/proxy').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId);
}

export function deleteProxy(t: TestApp, ws: E2eWorkspace): supertest.Test {
  return t.http().delete('/api/chat/proxy').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId);
}

/** `host:port` of a URL, as a proxy is asked for it (`CONNECT host:port`, a SOCKS5 target). */
export const hostPort = (url: string): string => new URL(url).host;

/** The status `error` after the proxy failed (close-policy.ts `proxyStopError`). */
export const proxyStopped = (failure: string): string =>
  `${failure}; fix the proxy or change it (PUT /api/chat/proxy, or WA_PROXY_URL), then call POST /api/chat/connect`;
