import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface Response {
  content?: Record<string, { schema?: { $ref?: string } }>;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
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
    // Not JSON when they succeed: the event stream, media files, and Google sign-in's redirects (not configured yet).
    const exempt = ['GET /api/events', 'GET /api/media/{workspace}/{file}', 'GET /api/auth/google/start', 'GET /api/auth/google/callback', 'GET /api/auth/google/pending', 'POST /api/auth/google/confirm'];
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
});
