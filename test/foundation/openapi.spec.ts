import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '../../src/modules/webhooks/events/webhook-event.catalogue.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface WebhookOperation {
  parameters: { name: string; schema: unknown }[];
  requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] }; example: Record<string, unknown> }> };
  responses: Record<string, unknown>;
}

interface Response {
  description: string;
  content?: Record<string, { schema?: { $ref?: string; type?: string } }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

interface Operation {
  responses: Record<string, Response>;
  parameters?: Parameter[];
  'x-access'?: string;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>>; schemas: Record<string, { properties?: Record<string, unknown> }> };
}

describe('API documentation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves an OpenAPI 3 document as JSON at /api/openapi.json, without credentials', async () => {
    const res = await t.http().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = JSON.parse(res.text) as OpenApiDocument;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.paths['/api/health']?.get).toBeDefined();
  });

  it('declares the Bearer API key and the session cookie as security schemes', async () => {
    const doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'svc_session' });
  });

  it('serves the HTML explorer at /api/docs with the assets it loads', async () => {
    const res = await t.http().get('/api/docs').redirects(2);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');

    // The page is useless if its script does not load.
    const script = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    const asset = await t.http().get(script!.startsWith('/') ? script! : `/api/docs/${script}`);
    expect(asset.status).toBe(200);
  });

  it('describes every error response with the one error shape', async () => {
    const doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    expect(Object.keys(doc.components.schemas.ErrorResponse?.properties ?? {})).toEqual(['error', 'code']);
    const errors = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries(operation.responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => ({ at: `${method.toUpperCase()} ${path} ${status}`, ref: response.content?.['application/json']?.schema?.$ref })),
      ),
    );
    expect(errors.length).toBeGreaterThan(50);
    // The one exception: the health check's 503 is its report, `status: "degraded"`.
    expect(errors.filter((e) => e.ref !== '#/components/schemas/ErrorResponse')).toEqual([
      { at: 'GET /api/health 503', ref: '#/components/schemas/HealthReport' },
    ]);
  });

  it('lists the errors the access rules imply: 401/403/402 on workspace routes, none on public ones', async () => {
    const doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    const statuses = (path: string, method: string): string[] => Object.keys(doc.paths[path]![method]!.responses);
    expect(statuses('/api/conversations', 'get')).toEqual(expect.arrayContaining(['200', '401', '403', '402']));
    expect(statuses('/api/keys', 'post')).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(statuses('/api/health', 'get')).not.toContain('401');
    expect(statuses('/api/auth/me', 'get')).toContain('401');
    expect(statuses('/api/auth/me', 'get')).not.toContain('402');
  });

  it('gives every operation a summary, and every JSON success a schema', async () => {
    const doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    const missing: string[] = [];
    // Not JSON when they succeed: the event stream, media files, the provider's verification
    // challenge (plain text), Prometheus text, and Google sign-in's redirects.
    const exempt = [
      'GET /api/events',
      'GET /api/media/{workspace}/{file}',
      'GET /api/meta/webhook',
      'GET /metrics',
      'GET /api/auth/google/start',
      'GET /api/auth/google/callback',
    ];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item) as [string, { summary?: string; responses: Record<string, Response> }][]) {
        const at = `${method.toUpperCase()} ${path}`;
        if (!operation.summary) missing.push(`${at}: summary`);
        const success = Object.entries(operation.responses).filter(([status]) => Number(status) < 300);
        if (!exempt.includes(at) && !success.some(([, r]) => r.content?.['application/json']?.schema)) missing.push(`${at}: schema`);
      }
    }
    expect(missing).toEqual([]);
  });

  describe('for generated clients', () => {
    let doc: OpenApiDocument;
    beforeAll(async () => {
      doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    });
    const operations = (): [string, Operation][] =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
      );
    const operation = (at: string): Operation => {
      const [method, path] = at.split(' ') as [string, string];
      return doc.paths[path]![method.toLowerCase()]!;
    };
    const described = (at: string, status: string): string => operation(at).responses[status]?.description ?? '(not declared)';

    it('is a valid OpenAPI document (checked by an OpenAPI schema validator)', async () => {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1'); // the schema of 3.1, `webhooks` included
    });

    it('describes every webhook event in `webhooks`: a POST with the delivery headers, the body schema, an example and the 2xx', () => {
      const webhooks = (doc as unknown as { webhooks: Record<string, { post: WebhookOperation }> }).webhooks;
      expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT].sort());
      for (const [name, { post }] of Object.entries(webhooks)) {
        const headers = post.parameters.map((p) => p.name);
        expect([name, headers]).toEqual([name, ['X-Svc-Event', 'X-Hub-Signature-256', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'User-Agent']]);
        expect([name, post.parameters[0]!.schema]).toEqual([name, { type: 'string', const: name }]);
        const body = post.requestBody.content['application/json'];
        expect([name, Object.keys(body.example).sort()]).toEqual([name, Object.keys(body.schema.properties).sort()]);
        expect([name, body.schema.required.length > 0]).toEqual([name, true]);
        expect(post.responses['2XX']).toBeDefined();
      }
    });

    it('declares workspace selection (X-Tenant-ID header, ?tenant= query) on every workspace route, with its 400s', () => {
      const workspaceRoutes = operations().filter(([, op]) => ['member', 'session', 'console', undefined].includes(op['x-access']));
      expect(workspaceRoutes.length).toBeGreaterThan(20);
      for (const [at, op] of workspaceRoutes) {
        const header = op.parameters?.find((p) => p.in === 'header' && p.name === 'X-Tenant-ID');
        const query = op.parameters?.find((p) => p.in === 'query' && p.name === 'tenant');
        expect([at, header?.schema, query?.schema]).toEqual([at, { type: 'string', format: 'uuid' }, { type: 'string', format: 'uuid' }]);
        expect([at, header?.required]).toEqual([at, false]); // optional for keys, so not required in general
        expect(header?.description).toMatch(/required/);
        expect(described(at, '400')).toContain('`workspace required (X-Tenant-ID)`');
        expect(described(at, '400')).toContain('`invalid workspace id`');
      }
      // Not on routes without a workspace.
      expect(operation('GET /api/workspaces').parameters?.some((p) => p.name === 'X-Tenant-ID') ?? false).toBe(false);
      expect(operation('GET /api/health').parameters?.some((p) => p.name === 'X-Tenant-ID') ?? false).toBe(false);
    });

    it.each([
      ['POST /api/invites', '409', 'this person is already a member of the workspace'],
      ['POST /api/invites', '403', 'only an owner can make or change owners'],
      ['DELETE /api/invites/{id}', '404', 'invite not found'],
      ['PATCH /api/members/{user_id}', '404', 'member not found'],
      ['PATCH /api/members/{user_id}', '409', 'the last owner of a workspace cannot be demoted or removed'],
      ['DELETE /api/members/{user_id}', '409', 'the last owner of a workspace cannot be demoted or removed'],
      ['DELETE /api/members/{user_id}', '404', 'member not found'],
      ['POST /api/invites/accept', '403', 'this invite was sent to a different email address'],
      ['POST /api/workspaces', '403', 'API keys cannot administer workspaces'],
      ['DELETE /api/keys/{id}', '404', 'API key not found'],
      ['GET /api/conversations', '400', 'workspace required (X-Tenant-ID)'],
      ['POST /api/contacts', '400', 'request body must be JSON (Content-Type: application/json)'],
      ['POST /api/contacts', '413', 'payload too large'],
      ['GET /api/events', '503', 'live events are unavailable, retry shortly'],
    ])('%s declares %s with `%s`', (at, status, text) => {
      expect(described(at, status)).toContain(`\`${text}\``);
    });

    it('describes the API key as pk_live_ + 48 hex, not a JWT', () => {
      const scheme = (doc.components.securitySchemes.apiKey ?? {}) as { bearerFormat?: string; description?: string };
      expect(scheme.bearerFormat).not.toMatch(/JWT/i);
      expect(scheme.bearerFormat).toContain('pk_live_');
      expect(scheme.description).toMatch(/pk_live_.*48 hexadecimal/);
    });

    it('types, bounds and describes every query parameter', () => {
      const untyped: string[] = [];
      for (const [at, op] of operations()) {
        for (const p of op.parameters ?? []) {
          const schema = p.schema ?? {};
          if (!(schema.type || schema.anyOf || schema.$ref) || !p.description) untyped.push(`${at} ${p.in} ${p.name}`);
        }
      }
      expect(untyped).toEqual([]);
      const query = (at: string, name: string): Parameter | undefined => operation(at).parameters?.find((p) => p.in === 'query' && p.name === name);
      expect(query('GET /api/conversations/{id}/messages', 'limit')?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
      expect(query('GET /api/conversations/{id}/messages', 'before')?.schema).toMatchObject({ type: 'string' });
      expect(query('GET /api/contacts', 'q')?.schema).toMatchObject({ type: 'string' });
      expect(query('GET /api/conversations', 'status')?.schema).toEqual({ type: 'string', enum: ['open', 'pending', 'snoozed', 'closed'] });
      expect(JSON.stringify(query('GET /api/conversations', 'assignee')?.schema)).toContain('"uuid"');
      expect(query('GET /api/events', 'last_event_id')?.schema).toMatchObject({ type: 'string' });
    });

    it('declares the live stream as text/event-stream and describes its events', () => {
      const ok = operation('GET /api/events').responses['200']!;
      expect(ok.content?.['text/event-stream']?.schema).toEqual({ type: 'string' });
      for (const event of ['message.created', 'message.updated', 'conversation.updated', 'sync.progress', 'session.updated']) {
        expect(ok.description).toContain(`\`${event}\``);
      }
      expect(ok.description).toMatch(/Last-Event-ID/);
    });
  });
});
