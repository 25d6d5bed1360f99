/**
 * Bounds a collect step that asks Postgres or Redis: a scrape must answer even while one is away
 * (their clients retry and queue commands for much longer than a scrape waits).
 */
export function withinScrapeTimeout<T>(work: Promise<T>, ms = 2_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
