/** What the global filter needs to know about errors thrown by Postgres, Redis or the network. */

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

// Socket-level failures reaching Postgres or Redis.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// Postgres: connection exceptions (08), too many connections, a server shutting down or starting,
// and a database that is gone or refuses our login (dropped, renamed, its password changed).
const POSTGRES_UNAVAILABLE = /^(08...|53300|57P0[1-4]|3D000|28000|28P01)$/;
// pg and ioredis report a lost or refused connection with these texts and no code.
const UNAVAILABLE_TEXT =
  /^(Connection terminated|timeout exceeded when trying to connect|Connection is closed|Reached the max retries per request limit|Stream isn't writeable)/;

/**
 * Thrown by an adapter whose backing service (an object store, say) cannot be reached or answers
 * with a server error: the request may succeed later, so it is a 503 like Postgres or Redis.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
}

/** The error and what it wraps (TypeORM's `driverError`, `cause`), outermost first. */
function chain(error: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && found.length < 4) {
    const item = current as ErrorLike;
    found.push(item);
    current = item.driverError ?? item.cause;
  }
  return found;
}

/** Postgres or Redis could not be reached: the request may succeed later (503, not 500). */
export function isDependencyUnavailable(error: unknown): boolean {
  return chain(error).some(({ code, name, message }) => {
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
    if (name === 'MaxRetriesPerRequestError' || name === 'DependencyUnavailableError') return true;
    return typeof message === 'string' && UNAVAILABLE_TEXT.test(message);
  });
}

// Postgres failures that say nothing about the statement: deadlock, serialization failure,
// statement or lock timeout, out of memory or disk. Run again later, the same statement may pass.
const POSTGRES_TRANSIENT = /^(40P01|40001|57014|55P03|53[0-9]{3})$/;

/** The database is away, or failed for a reason that passes (a deadlock, a timeout): try again. */
export function isTransientFailure(error: unknown): boolean {
  return isDependencyUnavailable(error) || chain(error).some(({ code }) => typeof code === 'string' && POSTGRES_TRANSIENT.test(code));
}

/**
 * The Postgres SQLSTATE of a data exception (class 22: a value the column cannot hold, such as
 * U+0000 in text or an out-of-range number), which means bad input slipped past validation.
 */
export function postgresDataException(error: unknown): string | undefined {
  for (const { code } of chain(error)) if (typeof code === 'string' && code.startsWith('22')) return code;
  return undefined;
}
