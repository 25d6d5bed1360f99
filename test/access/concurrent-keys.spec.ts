import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Many key requests at once, with keys of different workspaces: each must be answered for its
 * own key. (Passport strategies carry per-request state; sharing it would cross requests, and
 * the crossed requests never get an answer: hence the request timeouts.)
 */
describe('API keys under concurrent requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every concurrent request with the workspace of its own key', async () => {
    const workspaces = await Promise.all([0, 1, 2, 3].map(() => t.factories.workspace()));
    const keys = await Promise.all(workspaces.map((w) => t.factories.apiKey(w.id, 'read')));
    const requests = Array.from({ length: 40 }, (_, i) => i % workspaces.length);
    const answers = await Promise.all(requests.map((i) => t.http().get('/api/workspace').set('Authorization', `Bearer ${keys[i]!.key}`).timeout(5000)));
    expect(answers.map((res) => res.status)).toEqual(requests.map(() => 200));
    expect(answers.map((res) => res.body.id)).toEqual(requests.map((i) => workspaces[i]!.id));
  });

  it('refuses an unknown key among valid ones without disturbing them', async () => {
    const workspace = await t.factories.workspace();
    const { key } = await t.factories.apiKey(workspace.id, 'read');
    const unknown = `pk_live_${'0'.repeat(48)}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t
          .http()
          .get('/api/workspace')
          .set('Authorization', `Bearer ${i % 2 ? unknown : key}`)
          .timeout(5000),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 401 : 200)));
  });
});
