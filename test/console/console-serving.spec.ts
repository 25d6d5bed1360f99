import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONSOLE_ROUTE_ROOTS } from '../../src/infra/http/console-assets.js';
import { rawRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const NOT_FOUND = { error: 'not found', code: 'not_found' };
const INDEX = '<!doctype html><title>Console</title><script type="module" src="/assets/index-AbC123.js"></script>';

/** A built Console as Vite lays it out: index.html, hashed assets, files from public/. */
function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("console")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.secret'), 'never served');
  return dir;
}

describe('the service serves the Console', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fixture();
    t = await createTestApp({ env: { CONSOLE_DIR: dir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    '/',
    '/login',
    '/inbox',
    '/inbox/6f1c2b4e-8a7d-4c61-9a51-3c1f0e2d4b5a',
    '/settings/webhooks/6f1c2b4e-8a7d-4c61-9a51-3c1f0e2d4b5a',
    '/signup/google',
    // The exact links the service mails (account-mails.ts, invite-mail.ts).
    '/verify-email?token=abc_DEF-123',
    '/reset-password?token=abc_DEF-123',
    '/accept-invite?token=abc_DEF-123',
  ])('answers index.html on the client-side route %s, uncached and with the page headers', async (path) => {
    const res = await t.http().get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets with a year of caching, and other files revalidated', async () => {
    const asset = await t.http().get('/assets/index-AbC123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.text).toBe('console.log("console")');

    const icon = await t.http().get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await t.http().head('/inbox');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text ?? '').toBe('');
  });

  it.each(['/api', '/api/', '/api/no-such-route', '/api/inbox', '/api/conversations/x/y/z', '/api/login'])(
    'never answers HTML for %s: the API keeps its 404 JSON',
    async (path) => {
      const res = await t.http().get(path).set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual(NOT_FOUND);
    },
  );

  it('leaves API routes alone', async () => {
    const res = await t.http().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('leaves GET /metrics to the service (Prometheus text, not the Console)', async () => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it.each(['/no-such-page', '/metrics/extra', '/assets/index-Old999.js', '/inbox.php', '/.secret', '/assets/', '/index.htm'])(
    'answers a path that is neither a Console route nor one of its files (%s) with the 404 JSON',
    async (path) => {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    },
  );

  it.each(['post', 'put', 'delete', 'patch'] as const)('answers %s on a Console route with the 404 JSON (pages are read-only)', async (method) => {
    const res = await t.http()[method]('/inbox');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('never serves a file outside the build directory', async () => {
    for (const path of ['/assets/..%2f..%2fpackage.json', '/%2e%2e/package.json', '/..%5c..%5cpackage.json', '/assets/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await rawRequest(t.app.getHttpServer(), `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).not.toContain('"dependencies"');
      expect(res.body).not.toContain('root:');
    }
  });

  it('answers an absolute-form request target with the 404 JSON, not the page', async () => {
    const res = await rawRequest(t.app.getHttpServer(), 'GET http://evil.example/inbox HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual(NOT_FOUND);
  });
});

describe('a service without a built Console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CONSOLE_DIR: join(tmpdir(), 'no-console-build-here') } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers its routes with the 404 JSON instead of failing', async () => {
    for (const path of ['/', '/inbox', '/verify-email?token=x']) {
      const res = await t.http().get(path);
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
    }
  });
});

describe('the Console route list', () => {
  it('is the same in the service and in the Console router', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../console/src/routes.ts'), 'utf8');
    const patterns = [...source.matchAll(/pattern: '([^']*)'/g)].map((m) => m[1]!);
    expect(patterns.length).toBeGreaterThan(10);
    const roots = [...new Set(patterns.map((p) => p.split('/')[1]!))].sort();
    expect(roots).toEqual([...CONSOLE_ROUTE_ROOTS].sort());
  });
});
