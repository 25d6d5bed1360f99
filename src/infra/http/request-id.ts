import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

type WithId = IncomingMessage & { id?: string | number | object };

/**
 * Gives the request an id (a sane incoming `X-Request-Id` from a proxy, else a new UUID) and
 * echoes it in the response. Idempotent: the first call decides, later ones return the same id.
 */
export function assignRequestId(req: WithId, res: ServerResponse): string {
  if (typeof req.id === 'string') return req.id;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  return id;
}
