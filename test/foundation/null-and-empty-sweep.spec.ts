import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from '../accounts/accounts-support.js';
import {
  bodySchemaOf,
  documentedTexts,
  exampleOf,
  type KnownValues,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  PLACEHOLDER_ID,
  problems,
  type Schema,
  variantCount,
} from '../support/openapi-examples.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every field of a body, nested ones and those of array items included: [path, leaf name]. */
function fieldsOf(value: Json, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => fieldsOf(item, [...at, index]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, inner]) => [[...at, name], ...fieldsOf(inner, [...at, name])]);
}

function withNull(body: Json, path: (string | number)[]): Json {
  const copy = structuredClone(body);
  let parent = copy as Record<string | number, Json>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, Json>;
  parent[path.at(-1)!] = null;
  return copy;
}

/** A non-empty query value the parameter's schema excludes, if there is one. */
function wrongValue(doc: OpenApiDocument, schema: Schema): string | undefined {
  return ['!', 'not-a-valid-value', '-1', '0'].find((value) => problems(doc, schema, value).length > 0);
}

const is400Naming = (operation: Operation, name: string, error: unknown): boolean =>
  typeof error === 'string' && (error.includes(name) || documentedTexts(operation, '400').includes(error));

/**
 * The document's word on `null` and on empty query values holds on every operation: a field
 * the document declares nullable takes `null`; any other `null` (the service's default is never
 * what it means) is 400 naming the field, on create as on PATCH. A query value the schema
 * excludes is refused like any wrong value, the empty one (`?status=`) included; one the schema
 * allows is no 400.
 */
describe('null fields and empty query values, on every operation of the OpenAPI document', () => {
  let t: AccountsTestApp;
  let doc: OpenApiDocument;
  let headers: Record<string, string>;
  let known: KnownValues;

  beforeAll(async () => {
    t = await createAccountsApp();
    doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    headers = { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id, Origin: t.config.publicUrl };
    // What automation actions name must exist: a template (with the parameters it takes), a member, a label.
    const template = await t.http().post('/api/templates').set(headers).send({ name: 'sweep', body: 'Hello {{1}}' });
    expect(template.status).toBe(201);
    // A label the `add_label` action names, and a member a note may mention.
    const label = await t.http().post('/api/labels').set(headers).send({ name: 'sweep' });
    expect(label.status).toBe(201);
    known = { template_id: template.body.id, parameters: ['Ada'], user_id: owner.id, label_id: label.body.id, mentions: [owner.id] };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('null: 400 naming the field unless the document declares it nullable, then never 400', async () => {
    const failures: string[] = [];
    const probed = new Set<string>();
    for (const [method, template, operation] of operationsOf(doc)) {
      const schema = bodySchemaOf(operation);
      if (!schema) continue;
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      const bodies = new Set<string>();
      for (let variant = 0; variant < variantCount(doc, schema); variant++) bodies.add(JSON.stringify(exampleOf(doc, schema, { full: true, variant, known })));
      for (const text of bodies) {
        const body = JSON.parse(text) as Json;
        for (const field of fieldsOf(body)) {
          const probe = withNull(body, field);
          const nullable = problems(doc, schema, probe).length === 0;
          t.resetRateLimits();
          const res = await t.http()[method as 'post'](path).set(headers).set('Content-Type', 'application/json').send(JSON.stringify(probe));
          const where = `${method.toUpperCase()} ${template} ${field.join('.')}: null (${nullable ? 'nullable' : 'not nullable'})`;
          probed.add(`${method.toUpperCase()} ${template} ${field.filter((step) => typeof step === 'string').join('.')}${nullable ? ' (nullable)' : ''}`);
          const ok = nullable ? res.status !== 400 && res.status < 500 : res.status === 400 && String(res.body.error).includes(String(field.at(-1)));
          if (!ok) failures.push(`${where} → ${res.status} ${res.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Fields with a default refuse null on create as on PATCH; those that may be emptied take it.
    expect([...probed]).toEqual(
      expect.arrayContaining([
        'POST /api/webhooks events',
        'POST /api/webhooks enabled',
        'PATCH /api/webhooks/{id} events',
        'POST /api/templates language',
        'POST /api/templates category',
        'POST /api/automations match',
        'POST /api/automations enabled',
        'POST /api/automations actions.parameters',
        'POST /api/automations actions.min_rank',
        'POST /api/conversations/{id}/messages type',
        'POST /api/conversations/{id}/messages media.url',
        'POST /api/contacts phone',
        'PUT /api/meta/settings access_token',
        'POST /api/conversations/{id}/assign user_id (nullable)',
        'PATCH /api/contacts/{id} name (nullable)',
        'PATCH /api/automations/{id} conditions (nullable)',
        'POST /api/automations actions.user_id (nullable)',
      ]),
    );
  });

  it('an empty query value the schema excludes is refused like a wrong one; one it allows is no 400', async () => {
    const failures: string[] = [];
    let refusals = 0;
    const send = (method: string, path: string, query: string) => {
      t.resetRateLimits();
      return t.http()[method as 'get'](`${path}?${query}`).set(headers);
    };
    for (const [method, template, operation] of operationsOf(doc)) {
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      const streams = Object.values(operation.responses).some((response) => JSON.stringify(response).includes('text/event-stream'));
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
        const where = `${method.toUpperCase()} ${template} ?${parameter.name}=`;
        const name = encodeURIComponent(parameter.name);
        const allowed = problems(doc, parameter.schema ?? {}, '').length === 0;
        if (allowed) {
          if (streams) continue; // would open the stream: nothing to refuse there
          const res = await send(method, path, `${name}=`);
          if (res.status === 400) failures.push(`${where}: 400 ${res.text}, though the schema allows ""`);
          continue;
        }
        const empty = await send(method, path, `${name}=`);
        const wrong = wrongValue(doc, parameter.schema ?? {});
        // A wrong value gets the operation's answer for it (the provider's verification says 403).
        const expected = wrong === undefined ? 400 : (await send(method, path, `${name}=${encodeURIComponent(wrong)}`)).status;
        refusals++;
        if (expected < 400 || expected >= 500) failures.push(`${where}: the wrong value ${wrong} got ${expected}`);
        if (empty.status !== expected) failures.push(`${where}: ${empty.status} ${empty.text}, a wrong value gets ${expected}`);
        else if (empty.status === 400 && !is400Naming(operation, parameter.name === 'tenant' ? 'workspace' : parameter.name, empty.body.error)) {
          failures.push(`${where}: 400 ${empty.text} names neither the parameter nor a documented text`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refusals).toBeGreaterThan(50);
  });
});
