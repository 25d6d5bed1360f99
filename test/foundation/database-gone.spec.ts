import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isDependencyUnavailable } from '../../src/infra/http/dependency-errors.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { dropTestDatabase } from '../support/test-env.js';

/** Postgres answers with the service's database dropped, or its login refused: 503, never 500. */
describe('a database that is gone', () => {
  it.each([
    ['3D000', 'database "inbox" does not exist'],
    ['28P01', 'password authentication failed for user "inbox"'],
    ['28000', 'role "inbox" is not permitted to log in'],
    ['57P04', 'database dropped'],
  ])('Postgres %s (%s) means the database is unavailable', (code, message) => {
    const driverError = Object.assign(new Error(message), { code });
    // As TypeORM wraps it (QueryFailedError.driverError), and as pg throws it on connect.
    expect(isDependencyUnavailable(Object.assign(new Error(message), { driverError }))).toBe(true);
    expect(isDependencyUnavailable(driverError)).toBe(true);
  });

  it('a unique violation or a syntax error is no outage', () => {
    for (const code of ['23505', '42601', '22P02']) expect(isDependencyUnavailable(Object.assign(new Error('x'), { code }))).toBe(false);
  });

  describe('dropped under a running service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers requests that need it 503 and the health check degraded', async () => {
      expect((await t.http().post('/api/auth/login').send({ email: 'a@example.com', password: 'wrong-password-1' })).status).toBe(401);
      await dropTestDatabase(t.databaseName);
      // The pool's connections were ended by the drop; new ones are refused: 3D000.
      for (let i = 0; i < 3; i++) {
        const res = await t.http().post('/api/auth/login').send({ email: 'a@example.com', password: 'wrong-password-1' });
        expect([i, res.status, res.body]).toEqual([i, 503, { error: expect.any(String) }]);
      }
      const health = await t.http().get('/api/health');
      expect([health.status, health.body.checks?.database]).toEqual([503, 'down']);
    });
  });
});
