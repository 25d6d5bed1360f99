import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { load, YAML11_SCHEMA } from 'js-yaml';

interface Service {
  build?: unknown;
  image?: string;
  restart?: string;
  pull_policy?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

// No Docker engine runs in CI: these check the file as Compose would read it (YAML merge keys
// resolved by the parser), for the mistakes that only show on a real machine.
const compose = load(readFileSync(new URL('../../docker/compose.yml', import.meta.url), 'utf8'), { schema: YAML11_SCHEMA }) as {
  services: Record<string, Service>;
};
const { api, worker, proxy } = compose.services as { api: Service; worker: Service; proxy: Service };
const nginx = readFileSync(new URL('../../docker/nginx.conf', import.meta.url), 'utf8');
const dockerfile = readFileSync(new URL('../../docker/Dockerfile', import.meta.url), 'utf8');

/** The directives of one nginx `location` block (no nested blocks in ours). */
function location(path: string): string {
  const start = nginx.indexOf(`location ${path} {`);
  return start < 0 ? '' : nginx.slice(start, nginx.indexOf('}', start));
}

/** Compose's `${VAR:-default}` interpolation, nested defaults included. */
function interpolate(value: string, env: Record<string, string>): string {
  let out = value;
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out.replace(/\$\{(\w+):-([^${}]*)\}/g, (_, name: string, fallback: string) => env[name] || fallback);
  }
  return out;
}

describe('docker/compose.yml', () => {
  it('builds the image once: api builds it, the worker runs the same tag and never pulls it', () => {
    const builders = Object.entries(compose.services)
      .filter(([, service]) => service.build)
      .map(([name]) => name);
    expect(builders).toEqual(['api']);
    expect(worker.image).toBe(api.image);
    expect(worker.pull_policy).toBe('never');
  });

  it('runs two api replicas and two workers, the api reachable only through the proxy', () => {
    expect(api.deploy?.replicas).toBe(2);
    expect(worker.deploy?.replicas).toBe(2);
    // Replicas cannot share a host port: only the proxy publishes one.
    expect(api.ports).toBeUndefined();
    expect(proxy.image).toMatch(/^nginx:1\.(2[89]|[3-9]\d)/);
    expect(proxy.ports).toEqual(['${API_PORT:-3000}:8080']);
    expect(proxy.volumes).toContain('./nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(proxy.depends_on?.api).toEqual({ condition: 'service_healthy' });
    expect(interpolate(api.environment!.TRUST_PROXY!, {})).toBe('1');
  });

  it('proxies to every replica (re-resolved) and passes Server-Sent Events through unbuffered', () => {
    expect(nginx).toMatch(/server api:3000 resolve;/);
    expect(nginx).toMatch(/resolver 127\.0\.0\.11/);
    const events = location('= /api/events');
    expect(events).toMatch(/proxy_pass http:\/\/api;/);
    expect(events).toMatch(/proxy_buffering off;/);
    expect(events).toMatch(/proxy_read_timeout 1h;/);
    expect(location('/')).toMatch(/proxy_pass http:\/\/api;/);
    // HTTP/1.1 with keep-alive to the replicas (an SSE stream needs it too) and the client's address.
    expect(nginx).toMatch(/proxy_http_version 1\.1;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it('lets Prometheus scrape each worker on METRICS_PORT', () => {
    expect(worker.environment!.METRICS_PORT).toBe('9464');
  });

  it('builds a multi-stage image that runs as a non-root user with a health check', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*scripts\/healthcheck\.mjs/m);
  });

  it('publishes PUBLIC_URL on the port the API is published on', () => {
    const publicUrl = api.environment!.PUBLIC_URL!;
    expect(interpolate(publicUrl, {})).toBe('http://localhost:3000');
    expect(interpolate(publicUrl, { API_PORT: '8080' })).toBe('http://localhost:8080');
    expect(interpolate(publicUrl, { API_PORT: '8080', PUBLIC_URL: 'https://inbox.example.com' })).toBe('https://inbox.example.com');
  });

  it('does not restart forever on a configuration error (exit 78)', () => {
    for (const service of [api, worker]) {
      // `always` and `unless-stopped` restart whatever the exit code; a bounded on-failure gives up.
      expect(service.restart).toMatch(/^on-failure:[1-9]\d*$/);
    }
  });
});
