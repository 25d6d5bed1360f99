import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from '../accounts/accounts-support.js';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; type?: string } }> };
  'x-raw-body'?: unknown;
}

const WRITE_METHODS = ['post', 'put', 'patch'] as const;
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const NOT_AN_OBJECT = { error: 'request body must be a JSON object' };

/**
 * A JSON body that is an array where the route takes an object is refused with
 * one clear sentence in the house style, on every write route of the OpenAPI document whose body
 * is an object (not the framework's "body: Validation failed (object is expected)").
 */
describe('a body that is not a JSON object, on every write route that takes one', () => {
  let t: AccountsTestApp;
  let paths: Record<string, Record<string, Operation>>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createAccountsApp();
    paths = ((await t.http().get('/api/openapi.json')).body as { paths: typeof paths }).paths;
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    headers = { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id, Origin: t.config.publicUrl };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('POST /api/contacts with [1,2]', async () => {
    const res = await t.http().post('/api/contacts').set(headers).set('Content-Type', 'application/json').send('[1,2]');
    expect([res.status, res.body]).toEqual([400, NOT_AN_OBJECT]);
  });

  it('every route whose body is an object answers arrays alike', async () => {
    const failures: string[] = [];
    let swept = 0;
    for (const [template, item] of Object.entries(paths)) {
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      for (const method of WRITE_METHODS) {
        const operation = item[method];
        const schema = operation?.requestBody?.content?.['application/json']?.schema;
        if (!operation || operation['x-raw-body'] !== undefined || !schema?.$ref) continue;
        swept++;
        // Bare values ("text", 5, true) are refused by the strict JSON parser already.
        for (const text of ['[1,2]', '[]', '[{"name":"x"}]']) {
          t.resetRateLimits();
          const res = await t.http()[method](path).set(headers).set('Content-Type', 'application/json').send(text);
          if (res.status !== 400 || JSON.stringify(res.body) !== JSON.stringify(NOT_AN_OBJECT)) {
            failures.push(`${method.toUpperCase()} ${template} ${text}: ${res.status} ${res.text}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(swept).toBeGreaterThan(20);
  });
});
