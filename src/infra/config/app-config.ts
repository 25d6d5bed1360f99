import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvSchema } from './env.schema.js';

export type Role = 'all' | 'api' | 'worker';
export type NodeEnv = 'development' | 'production' | 'test';

// Used only outside production so a developer can start the service without setting up secrets.
// Anything encrypted with it is readable by anyone who has this source file.
const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('whatsapp-inbox-development-key!!', 'utf8');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Scan-channel session placement and reconnects (CHAT_* variables; docs/chat.md). */
export interface ChatSessionConfig {
  leaseTtlMs: number;
  sweepIntervalMs: number;
  resumePerSecond: number;
  resumeConcurrency: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  maxFailures: number;
  connectWaitMs: number;
}

/** Outbound webhooks (ALLOW_*_WEBHOOKS, WEBHOOK_* variables; docs/webhooks.md). */
export interface WebhookConfig {
  allowHttp: boolean;
  allowPrivate: boolean;
  timeoutMs: number;
  /** Milliseconds to wait before retry 1, 2, …; its length + 1 is the number of attempts. */
  retryScheduleMs: number[];
  concurrency: number;
  endpointConcurrency: number;
  sweepIntervalMs: number;
}

/** The platform's Meta app and the Graph API (META_* variables; docs/cloud-channel.md). */
export interface MetaPlatformConfig {
  appId: string | undefined;
  appSecret: string | undefined;
  verifyToken: string | undefined;
  configId: string | undefined;
  /** Base address without a trailing slash, e.g. `https://graph.facebook.com`. */
  graphUrl: string;
  graphVersion: string;
}

/** Sign in with Google (GOOGLE_* variables; docs/accounts.md). */
export interface GoogleSignInConfig {
  /** Issuer identifier, without a trailing slash; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** An S3-compatible bucket for media (MEDIA_STORE=s3). */
export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Static credentials, or undefined for the AWS SDK's default chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  keyPrefix: string;
}

/** The validated, typed configuration. Built once at boot by `loadConfig`, then read-only. */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly role: Role;
  readonly port: number;
  /** The address the ports bind (HOST); undefined: every interface. */
  readonly host: string | undefined;
  readonly publicUrl: string;
  readonly databaseUrl: string;
  readonly migrateOnStart: boolean;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly encryptionKey: Buffer;
  readonly usingDevelopmentKey: boolean;
  readonly corsOrigins: '*' | string[];
  /** Express's `trust proxy`: all hops (true), none (false), a hop count, or proxy addresses. */
  readonly trustProxy: boolean | number | string[];
  readonly bodyLimit: string;
  /** BODY_LIMIT in bytes (kb and mb of 1,024, as the JSON parser counts them). */
  readonly bodyLimitBytes: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly contactEmail: string | undefined;
  readonly subscriptionsEnforced: boolean;
  readonly workerConcurrency: number;
  /** The scan channel's WebSocket endpoint (WhatsApp's own unless overridden). */
  readonly waWebSocketUrl: string;
  /** The WhatsApp Web version the scan channel announces; undefined: Baileys' bundled one. */
  readonly waVersion: [number, number, number] | undefined;
  readonly waLogLevel: string;
  /** Keepalive ping interval of scan-channel sockets (Baileys' keepAliveIntervalMs). */
  readonly waKeepAliveMs: number;
  /** Extra CA certificates (PEM) trusted for media hosts: tests with the WhatsApp simulator only. */
  readonly waMediaCa: { file: string; pem: string } | undefined;
  readonly chat: ChatSessionConfig;
  /** Absolute path of the local media directory. */
  readonly mediaDir: string;
  readonly allowPrivateMediaUrls: boolean;
  readonly webhooks: WebhookConfig;
  /** Time limit of one `matches` condition of an automation. */
  readonly automationRegexTimeoutMs: number;
  /** Rank (0..1) an article needs for `answer_from_knowledge`, unless the action sets its own. */
  readonly knowledgeAnswerMinRank: number;
  readonly meta: MetaPlatformConfig;
  /** Undefined unless both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. */
  readonly google: GoogleSignInConfig | undefined;
  /** Absolute path of the Console's built files. */
  readonly consoleDir: string;
  readonly mediaStore: 'local' | 's3';
  /** Set when `mediaStore` is `s3`. */
  readonly s3: S3Config | undefined;
  /** Bearer token of `GET /metrics`; undefined: public. */
  readonly metricsToken: string | undefined;
  /** The metrics-only HTTP port, if any. */
  readonly metricsPort: number | undefined;

  constructor(env: EnvSchema, encryptionKey: Buffer, usingDevelopmentKey: boolean, waMediaCa?: { file: string; pem: string }) {
    this.nodeEnv = env.NODE_ENV as NodeEnv;
    this.role = env.ROLE as Role;
    this.port = env.PORT;
    // `[::1]` as in a URL is the address ::1.
    this.host = env.HOST?.trim().replace(/^\[(.*)\]$/, '$1');
    this.publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
    this.databaseUrl = env.DATABASE_URL;
    this.migrateOnStart = env.DB_MIGRATE_ON_START;
    this.redisUrl = env.REDIS_URL;
    this.redisPrefix = env.REDIS_PREFIX;
    this.encryptionKey = encryptionKey;
    this.usingDevelopmentKey = usingDevelopmentKey;
    const origins = env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean);
    this.corsOrigins = origins.length === 0 || origins.includes('*') ? '*' : origins;
    this.trustProxy = parseTrustProxy(env.TRUST_PROXY);
    this.bodyLimit = env.BODY_LIMIT.toLowerCase();
    this.bodyLimitBytes = sizeInBytes(this.bodyLimit);
    this.logLevel = env.LOG_LEVEL;
    this.logFormat = env.LOG_FORMAT as 'json' | 'pretty';
    this.smtpUrl = env.SMTP_URL || undefined;
    this.mailFrom = env.MAIL_FROM;
    this.contactEmail = env.CONTACT_EMAIL || undefined;
    this.subscriptionsEnforced = env.SUBSCRIPTIONS_ENFORCED;
    this.workerConcurrency = env.WORKER_CONCURRENCY;
    this.waWebSocketUrl = env.WA_WEBSOCKET_URL ?? DEFAULT_WA_WEBSOCKET_URL;
    this.waVersion = env.WA_VERSION ? parseWaVersion(env.WA_VERSION) : undefined;
    this.waLogLevel = env.WA_LOG_LEVEL;
    this.waKeepAliveMs = env.WA_KEEPALIVE_MS;
    this.waMediaCa = waMediaCa;
    this.chat = {
      leaseTtlMs: env.CHAT_LEASE_TTL_MS,
      sweepIntervalMs: env.CHAT_SWEEP_INTERVAL_MS,
      resumePerSecond: env.CHAT_RESUME_PER_SECOND,
      resumeConcurrency: env.CHAT_RESUME_CONCURRENCY,
      reconnectBaseMs: env.CHAT_RECONNECT_BASE_MS,
      reconnectMaxMs: Math.max(env.CHAT_RECONNECT_MAX_MS, env.CHAT_RECONNECT_BASE_MS),
      maxFailures: env.CHAT_MAX_FAILURES,
      connectWaitMs: env.CHAT_CONNECT_WAIT_MS,
    };
    this.mediaDir = resolve(env.MEDIA_DIR);
    this.allowPrivateMediaUrls = env.ALLOW_PRIVATE_MEDIA_URLS;
    this.webhooks = {
      allowHttp: env.ALLOW_HTTP_WEBHOOKS,
      allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retryScheduleMs: parseDurations(env.WEBHOOK_RETRY_SCHEDULE),
      concurrency: env.WEBHOOK_CONCURRENCY,
      endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
      sweepIntervalMs: env.WEBHOOK_SWEEP_INTERVAL_MS,
    };
    this.automationRegexTimeoutMs = env.AUTOMATION_REGEX_TIMEOUT_MS;
    this.knowledgeAnswerMinRank = env.KNOWLEDGE_ANSWER_MIN_RANK;
    this.meta = {
      appId: env.META_APP_ID || undefined,
      appSecret: env.META_APP_SECRET || undefined,
      verifyToken: env.META_VERIFY_TOKEN || undefined,
      configId: env.META_CONFIG_ID || undefined,
      graphUrl: env.META_GRAPH_URL.replace(/\/+$/, ''),
      graphVersion: env.META_GRAPH_VERSION,
    };
    this.google =
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { issuer: env.GOOGLE_ISSUER.replace(/\/+$/, ''), clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
        : undefined;
    this.consoleDir = resolve(env.CONSOLE_DIR);
    this.mediaStore = env.MEDIA_STORE as 'local' | 's3';
    this.s3 =
      this.mediaStore === 's3'
        ? {
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET!,
            region: env.S3_REGION,
            credentials: env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } : undefined,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
            keyPrefix: env.S3_KEY_PREFIX,
          }
        : undefined;
    this.metricsToken = env.METRICS_TOKEN || undefined;
    this.metricsPort = env.METRICS_PORT;
  }

  get runsHttp(): boolean {
    return this.role !== 'worker';
  }

  get runsWorkers(): boolean {
    return this.role !== 'api';
  }

  get secureCookies(): boolean {
    return this.publicUrl.startsWith('https://');
  }
}

/** WhatsApp Web's own endpoint, the scan channel's default (also Baileys' default). */
export const DEFAULT_WA_WEBSOCKET_URL = 'wss://web.whatsapp.com/ws/chat';

/** `512kb`, `5mb`, `100b` (BODY_LIMIT's form, checked by the schema) in bytes. */
function sizeInBytes(raw: string): number {
  const [, amount, unit] = /^(\d+)(b|kb|mb)$/.exec(raw)!;
  return Number(amount) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
}

function parseWaVersion(raw: string): [number, number, number] {
  const [major, minor, patch] = raw.split(/[,.]/).map((part) => Number(part.trim()));
  return [major!, minor!, patch!];
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s, 5m,2h` → [5000, 300000, 7200000] (validated by EnvSchema). */
function parseDurations(raw: string): number[] {
  return raw.split(',').map((part) => {
    const [, amount, unit] = /^\s*(\d+)\s*(ms|s|m|h)\s*$/i.exec(part)!;
    return Number(amount) * UNIT_MS[unit!.toLowerCase()]!;
  });
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
const SECRET_VARIABLES = /SECRET|TOKEN|PASSWORD|ENCRYPTION_KEY|ACCESS_KEY|^(DATABASE|REDIS|SMTP)_URL$/;

/** "got <value>" for a config error, or "value not shown" for a variable that may hold a secret. */
function shown(name: string, value: unknown): string {
  return SECRET_VARIABLES.test(name) ? 'value not shown' : `got ${JSON.stringify(value)}`;
}

function parseTrustProxy(raw: string): boolean | number | string[] {
  const value = raw.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (['false', 'no', 'off'].includes(value)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((entry) => entry.trim());
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
  return (
    host.length <= 253 &&
    labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label)) &&
    !/^\d+$/.test(labels.at(-1)!)
  );
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function decodeKey(raw: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw.trim())) return undefined;
  const key = Buffer.from(raw.trim(), 'base64');
  return key.length === 32 ? key : undefined;
}

/**
 * Validates the environment and returns the typed configuration, or throws a `ConfigError` that
 * names every bad variable at once (so an operator fixes them in one go, not one per restart).
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Blank values count as unset, so `FOO=` in a .env file falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvSchema, present, { exposeDefaultValues: true });
  // One problem per variable: `PORT=abc` is "not an integer", not also "greater than 65535".
  // (The type check is each number's last decorator: class-validator runs them bottom-up.)
  const problems = validateSync(env, { whitelist: false, forbidUnknownValues: false, stopAtFirstError: true }).flatMap((error) =>
    Object.values(error.constraints ?? {}).map((text) =>
      text.startsWith(error.property) ? `${text} (${shown(error.property, error.value)})` : `${error.property} ${text}`,
    ),
  );
  // Parsed as the service will parse them, so a value the pattern let through cannot stop the start
  // later with an error that names no variable ("Invalid URL", "invalid IP address").
  for (const name of ['DATABASE_URL', 'REDIS_URL'] as const) {
    if (!problems.some((p) => p.startsWith(name)) && !URL.canParse(env[name])) problems.push(`${name} is not a valid URL (${shown(name, env[name])})`);
  }
  const badProxies = trustProxyProblems(env.TRUST_PROXY);
  if (badProxies && !problems.some((p) => p.startsWith('TRUST_PROXY'))) problems.push(`TRUST_PROXY has entries that are neither addresses nor subnets: ${badProxies}`);

  const badOrigins = env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter((o) => o !== '' && o !== '*' && !isOrigin(o));
  if (badOrigins.length) {
    problems.push(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com (got ${JSON.stringify(badOrigins.join(', '))})`);
  }

  if (env.HOST !== undefined && !isBindableHost(env.HOST)) {
    problems.push(`HOST must be an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name such as localhost (got ${JSON.stringify(env.HOST)})`);
  }
  problems.push(...googleProblems(env));
  if (env.MEDIA_STORE === 's3' && !env.S3_BUCKET) problems.push('S3_BUCKET is required when MEDIA_STORE=s3');
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  }
  if (typeof env.METRICS_PORT === 'number' && env.METRICS_PORT === env.PORT && env.ROLE !== 'worker') {
    problems.push(`METRICS_PORT must differ from PORT (both ${env.PORT})`);
  }

  let key: Buffer | undefined;
  let usingDevelopmentKey = false;
  if (env.ENCRYPTION_KEY) {
    key = decodeKey(env.ENCRYPTION_KEY);
    if (!key) problems.push('ENCRYPTION_KEY must be 32 random bytes encoded as base64 (openssl rand -base64 32)');
  } else if (env.NODE_ENV === 'production') {
    problems.push('ENCRYPTION_KEY is required when NODE_ENV=production (openssl rand -base64 32)');
  } else {
    key = DEVELOPMENT_ENCRYPTION_KEY;
    usingDevelopmentKey = true;
  }

  const waMediaCa = env.WA_MEDIA_CA_FILE ? readCaFile(env.WA_MEDIA_CA_FILE, problems) : undefined;

  if (problems.length > 0 || !key) throw new ConfigError(problems);
  return new AppConfig(env, key, usingDevelopmentKey, waMediaCa);
}

/** Reads a PEM file of CA certificates at boot, so a wrong path stops the start instead of a later download. */
function readCaFile(path: string, problems: string[]): { file: string; pem: string } | undefined {
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

/** Reads `.env` from the working directory into `process.env` (without overriding), if present. */
export function loadDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
