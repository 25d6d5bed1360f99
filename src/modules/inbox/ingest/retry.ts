// Postgres errors that a concurrent ingest can cause and that a fresh attempt resolves:
// unique_violation (two transactions filling in the same contact id), foreign_key_violation (the
// contact this statement found was merged away and deleted by a concurrent ingest before it
// linked it), deadlock_detected and serialization_failure.
const RETRYABLE_CODES = new Set(['23505', '23503', '40P01', '40001']);
const ATTEMPTS = 5;

/** Thrown inside the transaction to roll back and start again (see `withRetry`). */
export class RetryIngest extends Error {
  constructor() {
    super('ingest raced with a concurrent insert; retrying');
    this.name = 'RetryIngest';
  }
}

function isRetryable(error: unknown): boolean {
  if (error instanceof RetryIngest) return true;
  const code =
    (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code ?? (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

/** Runs `work` (a whole transaction) again when it lost a race, a few times. */
export async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      // A short, jittered pause lets the winner commit before we look again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}
