import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { listRoutes } from './support/routes.js';

// The committed list of every route and who may call it. A route added or an access rule changed
// makes this test fail until the snapshot is refreshed on purpose, so the change shows up in review:
//   UPDATE_SNAPSHOTS=1 npm test -- test/access/route-permissions
const SNAPSHOT = new URL('./route-permissions.snapshot.json', import.meta.url);

interface Permission {
  access: string;
  admin?: string;
  subscription_exempt?: true;
}

/** One line per route, so a diff shows exactly which routes changed. */
function serialize(permissions: Record<string, Permission>): string {
  const lines = Object.entries(permissions).map(([route, permission]) => `  ${JSON.stringify(route)}: ${JSON.stringify(permission)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

describe('route permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('match the committed snapshot', () => {
    const permissions: Record<string, Permission> = {};
    for (const route of listRoutes(t.app)) {
      permissions[`${route.method} ${route.path}`] = {
        access: route.rule.kind,
        ...(route.rule.admin ? { admin: route.rule.admin.message } : {}),
        ...(route.rule.subscriptionExempt ? { subscription_exempt: true as const } : {}),
      };
    }
    const actual = serialize(permissions);
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, actual);
    let committed = '{}\n';
    try {
      committed = readFileSync(SNAPSHOT, 'utf8');
    } catch {
      // No snapshot yet: the comparison below fails and says how to create one.
    }
    expect(JSON.parse(actual) as unknown).toEqual(JSON.parse(committed) as unknown);
  });
});
