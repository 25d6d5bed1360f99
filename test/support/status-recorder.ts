import { appendFileSync, mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from '../../src/infra/http/openapi.js';
import { type Observation, observedStatusesDir } from './observed-statuses.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

// Test-only controllers live under `test-*` paths (`/test-access`, `/api/test-echo`): their
// statuses are what each test makes them answer, not part of the API.
const TEST_ONLY_PATH = /^\/(api\/)?test-/;

interface Operation {
  method: string;
  route: string;
  pattern: RegExp;
  statuses: Set<number>;
}

/** The document's operations, literal paths before templated ones (`/invites/accept` before `/invites/{id}`). */
function operationsOf(document: OpenAPIObject): Operation[] {
  const operations: Operation[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operations.push({ method: method.toUpperCase(), route, pattern, statuses: new Set(Object.keys(operation.responses).map(Number)) });
    }
  }
  return operations.sort((a, b) => (a.route.match(/\{/g)?.length ?? 0) - (b.route.match(/\{/g)?.length ?? 0));
}

/**
 * Express middleware for the test harness: records every answered request whose path and method
 * name an operation of the app's OpenAPI document, with whether the status is declared there.
 * Requests refused before any route runs (a body over the size limit) count for the operation
 * their path names, because that is what a client of that operation sees.
 */
export function statusRecorder(app: INestApplication, runId: string): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const dir = observedStatusesDir(runId);
  const file = join(dir, `${process.pid}.ndjson`);
  let operations: Operation[] | undefined;
  return (req, res, next) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (TEST_ONLY_PATH.test(path)) return next();
    res.once('close', () => {
      if (!res.headersSent) return;
      operations ??= operationsOf(buildOpenApiDocument(app));
      const operation = operations.find((o) => o.method === req.method && o.pattern.test(path));
      if (!operation) return; // an unknown path or method: the generic 404, not an operation's answer
      const observation: Observation = {
        method: operation.method,
        route: operation.route,
        status: res.statusCode,
        declared: operation.statuses.has(res.statusCode),
      };
      mkdirSync(dir, { recursive: true });
      appendFileSync(file, `${JSON.stringify(observation)}\n`);
    });
    next();
  };
}
