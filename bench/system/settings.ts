// The benchmark's settings, from its environment (bench/journal/system.md lists them).
const num = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number (got ${JSON.stringify(value)})`);
  return n;
};

export const SETTINGS = {
  numbers: num('BENCH_SYSTEM_NUMBERS', 50),
  rates: (process.env.BENCH_SYSTEM_RATES || '100,500').split(',').map(Number),
  stepSeconds: num('BENCH_SYSTEM_STEP_S', 60),
  contacts: num('BENCH_SYSTEM_CONTACTS', 10),
  mediaShare: num('BENCH_SYSTEM_MEDIA_SHARE', 0.1),
  imageBytes: num('BENCH_SYSTEM_IMAGE_BYTES', 30_000),
  searchStart: num('BENCH_SYSTEM_SEARCH_START', 100),
  searchFactor: num('BENCH_SYSTEM_SEARCH_FACTOR', 1.5),
  searchMax: num('BENCH_SYSTEM_SEARCH_MAX', 5000),
  linkConcurrency: num('BENCH_CONCURRENCY', 8),
  soakMinutes: num('BENCH_SOAK_MIN', 30),
  soakNumbers: num('BENCH_SOAK_NUMBERS', 200),
  soakRate: num('BENCH_SOAK_RATE', 200),
  /** Seconds between the soak's reads of the worker's heap after a forced collection. */
  soakHeapEverySeconds: num('BENCH_SOAK_HEAP_EVERY_S', 60),
  /** Which parts run: service, floor, soak (the soak runs on the service). */
  phases: new Set((process.env.BENCH_SYSTEM_PHASES || 'service,floor,soak').split(',')),
};

export const shape = { contacts: SETTINGS.contacts, mediaShare: SETTINGS.mediaShare, imageBytes: SETTINGS.imageBytes };

/** The numbers linked: K of them, phone digits from 15553000000 up. */
export const phonesOf = (count: number, offset = 0): string[] => Array.from({ length: count }, (_, i) => String(15553000000 + offset + i));
