import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { load, YAML11_SCHEMA } from 'js-yaml';

interface Service {
  build?: unknown;
  image?: string;
  restart?: string;
  pull_policy?: string;
  environment?: Record<string, string>;
}

// No Docker engine runs in CI: these check the file as Compose would read it (YAML merge keys
// resolved by the parser), for the mistakes that only show on a real machine.
const compose = load(readFileSync(new URL('../../docker/compose.yml', import.meta.url), 'utf8'), { schema: YAML11_SCHEMA }) as { services: Record<string, Service> };
const { api, worker } = compose.services as { api: Service; worker: Service };

/** Compose's `${VAR:-default}` interpolation, nested defaults included. */
function interpolate(value: string, env: Record<string, string>): string {
  let out = value;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(/\$\{(\w+):-([^${}]*)\}/g, (_, name: string, fallback: string) => env[name] || fallback);
  }
  return out;
}

describe('docker/compose.yml', () => {
  it('builds the image once: api builds it, the worker runs the same tag and never pulls it', () => {
    const builders = Object.entries(compose.services).filter(([, service]) => service.build).map(([name]) => name);
    expect(builders).toEqual(['api']);
    expect(worker.image).toBe(api.image);
    expect(worker.pull_policy).toBe('never');
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
