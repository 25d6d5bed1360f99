import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { type Observation, checkObservedStatuses, observedStatusesDir, undeclaredPairs } from '../support/observed-statuses.mjs';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testRunId } from '../support/test-env.js';

/** A test-only route (a `test-*` path): its answers are not part of the API and are not recorded. */
@Public()
@Controller('api/test-observed')
class TeapotController {
  @Get()
  get(): { ok: true } {
    return { ok: true };
  }
}

describe('observed statuses vs the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ controllers: [TeapotController] });
  });
  afterAll(async () => {
    await t?.close();
  });

  // This worker's file only: other Jest workers of a full run append to their own files meanwhile.
  const observations = (): Observation[] => {
    const file = join(observedStatusesDir(testRunId()), `${process.pid}.ndjson`);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Observation);
  };

  it('records each answered request as its operation (path template), status and whether it is declared', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    const id = '00000000-0000-4000-8000-000000000000';
    await t.http().get(`/api/contacts/${id}?q=x`).set('Authorization', `Bearer ${key}`).expect(404);
    // A body refusal (raised after the guards, before the route's pipes): the operation's answer too.
    await t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`).set('Content-Type', 'text/plain').send('x').expect(400);
    await new Promise((resolve) => setImmediate(resolve)); // `close` fires after the client has the answer
    const seen = observations().filter((o) => o.route.startsWith('/api/contacts'));
    expect(seen).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/api/contacts/{id}', status: 404, declared: true },
        { method: 'POST', route: '/api/contacts', status: 400, declared: true },
      ]),
    );
  });

  it('skips unknown paths, methods no route has, and test-only routes', async () => {
    const before = observations().length;
    await t.http().get('/api/no-such-route').expect(404);
    await t.http().put('/api/health').expect(404);
    await t.http().get('/api/test-observed').expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(observations().length).toBe(before);
  });

  it('fails the run listing each undeclared pair once, sorted', () => {
    const pairs = undeclaredPairs([
      { method: 'POST', route: '/api/invites', status: 409, declared: false },
      { method: 'DELETE', route: '/api/invites/{id}', status: 404, declared: false },
      { method: 'POST', route: '/api/invites', status: 409, declared: false },
      { method: 'POST', route: '/api/invites', status: 201, declared: true },
    ]);
    expect(pairs).toEqual(['DELETE /api/invites/{id} 404', 'POST /api/invites 409']);

    // A run of its own, so this run's real observations are left alone.
    const runId = `check-${Date.now()}`;
    const dir = observedStatusesDir(runId);
    const write = (observation: object): void => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '1.ndjson'), `${JSON.stringify(observation)}\n`);
    };
    try {
      write({ method: 'POST', route: '/api/invites', status: 409, declared: false });
      expect(() => checkObservedStatuses(runId)).toThrow(/1 \(operation, status\) pair[\s\S]*POST \/api\/invites 409/);
      expect(existsSync(dir)).toBe(false); // cleaned up either way
      write({ method: 'POST', route: '/api/invites', status: 201, declared: true });
      expect(() => checkObservedStatuses(runId)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
