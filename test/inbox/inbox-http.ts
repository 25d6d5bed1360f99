import type supertest from 'supertest';
import type { TestApp } from '../support/test-app.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/** Who calls: an API key, or a signed-in member (cookie) selecting a workspace. */
export type Caller = { key: string } | { cookie: string; workspaceId: string };

/**
 * One request as `caller`. Non-GET requests always carry a JSON body, as the Console does (the
 * CSRF rule wants JSON on cookie requests).
 */
export function call(t: TestApp, caller: Caller, method: Method, path: string, body?: object): supertest.Test {
  let request = t.http()[method](path);
  request =
    'key' in caller ? request.set('Authorization', `Bearer ${caller.key}`) : request.set('Cookie', caller.cookie).set('X-Tenant-ID', caller.workspaceId);
  if (method !== 'get') request = request.set('Content-Type', 'application/json').send(body ?? {});
  return request;
}
