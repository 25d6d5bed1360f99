import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from '../accounts/accounts-support.js';

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string }>;
  'x-access'?: string;
  'x-roles'?: unknown;
  /** A provider callback: its raw bytes are signed, and nothing reads them before the signature passes. */
  'x-raw-body'?: unknown;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const WRITE_METHODS = ['post', 'put', 'patch'] as const;
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const TOO_DEEP = { error: 'JSON body nested too deeply (at most 64 levels)' };
const ILL_FORMED = { error: 'text must be well-formed Unicode (no lone surrogates)' };
const UNSIGNED = { error: 'missing X-Hub-Signature-256 signature' };
const UNAUTHORIZED = { error: 'unauthorized' };
const KEYS_REFUSED = { error: 'API keys cannot administer workspaces' };
const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** The body's top-level properties, $refs and allOf resolved; a fixed probe field if it has none. */
function fieldsOf(doc: OpenApiDocument, schema: Schema | undefined): string[] {
  if (!schema) return ['email'];
  if (schema.$ref) return fieldsOf(doc, doc.components.schemas[schema.$ref.split('/').pop()!]);
  const own = Object.keys(schema.properties ?? {});
  const inherited = (schema.allOf ?? []).flatMap((part) => fieldsOf(doc, part));
  const fields = [...new Set([...own, ...inherited])];
  return fields.length ? fields : ['email'];
}

interface Probe {
  name: string;
  text: string;
  expected: { error: string };
}

/** The hostile bodies for one operation: whole-body nesting, nesting in each field, a lone surrogate in each field. */
function probesFor(fields: string[]): Probe[] {
  return [
    { name: '10,000 nested [', text: nested(10_000), expected: TOO_DEEP },
    ...fields.map((field) => ({ name: `${field}: 70 nested arrays`, text: `{${JSON.stringify(field)}:${nested(70)}}`, expected: TOO_DEEP })),
    ...fields.map((field) => ({ name: `${field}: lone surrogate`, text: `{${JSON.stringify(field)}:"a\\ud800b"}`, expected: ILL_FORMED })),
  ];
}

type Caller = 'session' | 'write key' | 'no credentials';

/**
 * What the guard chain answers `caller` on `operation` whatever the body (docs/api.md's check order puts
 * input validation after it), or null when the caller gets through (the session is the
 * workspace's owner). On a route limited to admins a key gets the route's own 403 text: any 403
 * text the operation documents.
 */
function denialOf(operation: Operation, caller: Caller): { status: number; matches: (body: unknown) => boolean } | null {
  const access = operation['x-access'] ?? 'member';
  const exactly = (status: number, expected: unknown) => ({ status, matches: (body: unknown) => JSON.stringify(body) === JSON.stringify(expected) });
  if (access === 'public' || caller === 'session') return null;
  if (caller === 'no credentials') return exactly(401, UNAUTHORIZED);
  if (access !== 'member') return exactly(403, KEYS_REFUSED);
  if (operation['x-roles'] === undefined) return null;
  const documented = operation.responses['403']?.description ?? '';
  return {
    status: 403,
    matches: (body) => typeof (body as { error?: unknown }).error === 'string' && documented.includes(`\`${(body as { error: string }).error}\``),
  };
}

/**
 * Every POST/PUT/PATCH operation of the OpenAPI document (other modules' included, as they land)
 * gets the hostile bodies with each kind of caller. None may cost a 5xx. A caller the guard chain
 * refuses gets that refusal whatever the body (authentication and roles come before input
 * validation); one it lets through gets the same 400 before any pipe or handler sees the body.
 * On raw-body routes (provider callbacks, `x-raw-body`) an unsigned body is refused with 401
 * before anything reads it.
 */
describe('hostile bodies on every write route of the OpenAPI document', () => {
  let t: AccountsTestApp;
  let doc: OpenApiDocument;
  let callers: [Caller, Record<string, string>][];
  beforeAll(async () => {
    t = await createAccountsApp();
    doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    callers = [
      ['session', { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id }],
      ['write key', { Authorization: `Bearer ${key}` }],
      ['no credentials', {}],
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds the write routes to sweep', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => WRITE_METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/auth/register',
        'POST /api/keys',
        'PATCH /api/workspace',
        'POST /api/conversations/{id}/messages',
        'POST /api/templates',
        'PATCH /api/templates/{id}',
        'POST /api/templates/sync',
        'POST /api/automations',
        'PATCH /api/automations/{id}',
        'POST /api/knowledge',
        'PATCH /api/knowledge/{id}',
      ]),
    );
  });

  it('answers every hostile body with 400 once the guards pass, never a 5xx, whoever calls', async () => {
    const answers: string[] = [];
    const failures: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      for (const method of WRITE_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        // A raw-body route refuses any unsigned body (401) before anything could parse it.
        const raw = operation['x-raw-body'] !== undefined;
        const probes = probesFor(fieldsOf(doc, operation.requestBody?.content?.['application/json']?.schema)).map((probe) =>
          raw ? { ...probe, expected: UNSIGNED } : probe,
        );
        for (const [caller, headers] of callers) {
          for (const probe of probes) {
            t.resetRateLimits();
            const res = await t.http()[method](path).set(headers).set('Content-Type', 'application/json').send(probe.text);
            const where = `${method.toUpperCase()} ${template} (${caller}, ${probe.name})`;
            answers.push(where);
            const denial = raw ? null : denialOf(operation, caller);
            const status = denial?.status ?? (raw ? 401 : 400);
            const matches = denial ? denial.matches(res.body) : JSON.stringify(res.body) === JSON.stringify(probe.expected);
            if (res.status >= 500 || res.status !== status || !matches) {
              failures.push(`${where}: ${res.status} ${res.text}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(100);
  });
});
