// Environment values as the service uses them, once EnvSchema has checked their form.

/** `512kb`, `5mb`, `100b` (BODY_LIMIT's form, checked by the schema) in bytes. */
export function sizeInBytes(raw: string): number {
  const [, amount, unit] = /^(\d+)(b|kb|mb)$/.exec(raw)!;
  return Number(amount) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
}

export function parseWaVersion(raw: string): [number, number, number] {
  const [major, minor, patch] = raw.split(/[,.]/).map((part) => Number(part.trim()));
  return [major!, minor!, patch!];
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s, 5m,2h` → [5000, 300000, 7200000] (validated by EnvSchema). */
export function parseDurations(raw: string): number[] {
  return raw.split(',').map((part) => {
    const [, amount, unit] = /^\s*(\d+)\s*(ms|s|m|h)\s*$/i.exec(part)!;
    return Number(amount) * UNIT_MS[unit!.toLowerCase()]!;
  });
}

/** TRUST_PROXY as Express takes it: true/false, a hop count, or the list of presets, addresses and subnets. */
export function parseTrustProxy(raw: string): boolean | number | string[] {
  const value = raw.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (['false', 'no', 'off'].includes(value)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((entry) => entry.trim());
}

/** ENCRYPTION_KEY's 32 bytes, or undefined when it is not 32 bytes of base64. */
export function decodeKey(raw: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw.trim())) return undefined;
  const key = Buffer.from(raw.trim(), 'base64');
  return key.length === 32 ? key : undefined;
}
