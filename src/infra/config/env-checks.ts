import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { validateSync } from 'class-validator';
import type { EnvSchema } from './env.schema.js';
import { parseTrustProxy } from './env-parsers.js';
import { parseProxyUrl, ProxyUrlError } from '../net/proxy-url.js';

// What is wrong with an environment, in words an operator acts on: EnvSchema's rules per variable,
// then what only a parse or a look at several variables can tell. loadConfig reports them all at once.

/** Every rule of EnvSchema a variable breaks, one problem per variable. */
export function schemaProblems(env: EnvSchema): string[] {
  // One problem per variable: `PORT=abc` is "not an integer", not also "greater than 65535".
  // (The type check is each number's last decorator: class-validator runs them bottom-up.)
  return validateSync(env, { whitelist: false, forbidUnknownValues: false, stopAtFirstError: true }).flatMap((error) =>
    Object.values(error.constraints ?? {}).map((text) =>
      text.startsWith(error.property) ? `${text} (${shown(error.property, error.value)})` : `${error.property} ${text}`,
    ),
  );
}

/**
 * What the schema's per-variable rules cannot tell (`found`: the problems it found, so a variable
 * is named once): values parsed as the service will parse them, so one the pattern let through
 * cannot stop the start later with an error that names no variable ("Invalid URL", "invalid IP
 * address"), and variables that only make sense together.
 */
export function valueProblems(env: EnvSchema, found: readonly string[]): string[] {
  const problems: string[] = [];
  const named = (name: string): boolean => found.some((p) => p.startsWith(name));
  for (const name of ['DATABASE_URL', 'REDIS_URL'] as const) {
    if (!named(name) && !URL.canParse(env[name])) problems.push(`${name} is not a valid URL (${shown(name, env[name])})`);
  }
  const badProxies = trustProxyProblems(env.TRUST_PROXY);
  if (badProxies && !named('TRUST_PROXY')) problems.push(`TRUST_PROXY has entries that are neither addresses nor subnets: ${badProxies}`);

  const badOrigins = env.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '' && o !== '*' && !isOrigin(o));
  if (badOrigins.length) {
    problems.push(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com (got ${JSON.stringify(badOrigins.join(', '))})`);
  }

  if (env.HOST !== undefined && !isBindableHost(env.HOST)) {
    problems.push(`HOST must be an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name such as localhost (got ${JSON.stringify(env.HOST)})`);
  }
  problems.push(...googleProblems(env));
  const proxy = env.WA_PROXY_URL === undefined || named('WA_PROXY_URL') ? null : proxyProblem(env.WA_PROXY_URL);
  if (proxy) problems.push(proxy);
  if (env.MEDIA_STORE === 's3' && !env.S3_BUCKET) problems.push('S3_BUCKET is required when MEDIA_STORE=s3');
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  }
  if (typeof env.METRICS_PORT === 'number' && env.METRICS_PORT === env.PORT && env.ROLE !== 'worker') {
    problems.push(`METRICS_PORT must differ from PORT (both ${env.PORT})`);
  }
  return problems;
}

/** What is wrong with WA_PROXY_URL, in the words of `PUT /api/chat/proxy` (never quoting it: it may hold a password). */
function proxyProblem(raw: string): string | null {
  try {
    parseProxyUrl(raw);
    return null;
  } catch (error) {
    if (!(error instanceof ProxyUrlError)) throw error;
    const text = error.message.startsWith('url ') ? error.message.slice('url'.length) : `: ${error.message}`;
    return `WA_PROXY_URL${text} (value not shown)`;
  }
}

/** The entries of a TRUST_PROXY list that are no preset, address or subnet, quoted; null when all are. */
function trustProxyProblems(raw: string): string | null {
  const parsed = parseTrustProxy(raw);
  if (!Array.isArray(parsed)) return null;
  const bad = parsed.filter((entry) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return false;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || rest.length > 0) return true;
    return prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128));
  });
  return bad.length ? bad.map((entry) => JSON.stringify(entry)).join(', ') : null;
}

// Variables whose values may hold a password or a token: a config error names them, never quotes them.
const SECRET_VARIABLES = /SECRET|TOKEN|PASSWORD|ENCRYPTION_KEY|ACCESS_KEY|^(DATABASE|REDIS|SMTP|WA_PROXY)_URL$/;

/** "got <value>" for a config error, or "value not shown" for a variable that may hold a secret. */
function shown(name: string, value: unknown): string {
  return SECRET_VARIABLES.test(name) ? 'value not shown' : `got ${JSON.stringify(value)}`;
}

/** `scheme://host[:port]` exactly, as browsers send it in `Origin` (no path, no trailing slash). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * What is wrong with the Google sign-in variables, if anything. The client id and secret come as a
 * pair. The issuer must be https, except on a loopback address (a local test issuer): ID tokens
 * are trusted because they come over TLS from the issuer, so plain HTTP elsewhere would let anyone
 * on the path sign people in.
 */
function googleProblems(env: EnvSchema): string[] {
  const problems: string[] = [];
  if (env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET) problems.push('GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set');
  if (env.GOOGLE_CLIENT_SECRET && !env.GOOGLE_CLIENT_ID) problems.push('GOOGLE_CLIENT_ID is required when GOOGLE_CLIENT_SECRET is set');
  let issuer: URL;
  try {
    issuer = new URL(env.GOOGLE_ISSUER);
  } catch {
    return problems; // the schema already named it
  }
  if (issuer.search || issuer.hash || issuer.username || issuer.password) {
    problems.push(`GOOGLE_ISSUER must be a plain issuer URL without credentials, query or fragment (got ${JSON.stringify(env.GOOGLE_ISSUER)})`);
  } else if (issuer.protocol === 'http:' && !isLoopbackHost(issuer.hostname)) {
    problems.push(`GOOGLE_ISSUER must be an https:// URL (http:// only on a loopback address) (got ${JSON.stringify(env.GOOGLE_ISSUER)})`);
  }
  return problems;
}

/** An IP address (IPv6 also in brackets) or a DNS host name; a dotted number that is no IPv4 address is neither. */
function isBindableHost(raw: string): boolean {
  const host = raw.trim().replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return true;
  const labels = host.split('.');
  return host.length <= 253 && labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Reads a PEM file of CA certificates at boot, so a wrong path stops the start instead of a later download. */
export function readCaFile(path: string, problems: string[]): { file: string; pem: string } | undefined {
  const file = resolve(path);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`WA_MEDIA_CA_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}: ${file})`);
    return undefined;
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    problems.push(`WA_MEDIA_CA_FILE must be a PEM file of CA certificates (got ${file})`);
    return undefined;
  }
  return { file, pem };
}
