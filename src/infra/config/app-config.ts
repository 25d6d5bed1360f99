import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import type { ChatSessionConfig, GoogleSignInConfig, MetaPlatformConfig, NodeEnv, Role, S3Config, SendDefaults, WebhookConfig } from './config-sections.js';
import { EnvSchema } from './env.schema.js';
import { readCaFile, schemaProblems, valueProblems } from './env-checks.js';
import { decodeKey, parseDurations, parseTrustProxy, parseWaVersion, sizeInBytes } from './env-parsers.js';
import { parseProxyUrl, type ProxyEndpoint } from '../net/proxy-url.js';

export type { ChatSessionConfig, GoogleSignInConfig, MetaPlatformConfig, NodeEnv, Role, S3Config, SendDefaults, WebhookConfig } from './config-sections.js';

// Used only outside production so a developer can start the service without setting up secrets.
// Anything encrypted with it is readable by anyone who has this source file.
const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('whatsapp-inbox-development-key!!', 'utf8');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
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
  /** Media-download jobs a worker runs at once per queue (scan and Cloud API), apart from WORKER_CONCURRENCY. */
  readonly mediaDownloadConcurrency: number;
  /** The scan channel's WebSocket endpoint (WhatsApp's own unless overridden). */
  readonly waWebSocketUrl: string;
  /** The WhatsApp Web version the scan channel announces; undefined: Baileys' bundled one. */
  readonly waVersion: [number, number, number] | undefined;
  readonly waLogLevel: string;
  /** Keepalive ping interval of scan-channel sockets (Baileys' keepAliveIntervalMs). */
  readonly waKeepAliveMs: number;
  /** Extra CA certificates (PEM) trusted for media hosts: tests with the WhatsApp simulator only. */
  readonly waMediaCa: { file: string; pem: string } | undefined;
  /** WA_PROXY_URL: the egress proxy of every number without one of its own; undefined: direct. */
  readonly waProxy: ProxyEndpoint | undefined;
  readonly chat: ChatSessionConfig;
  /** Absolute path of the local media directory. */
  readonly mediaDir: string;
  readonly allowPrivateMediaUrls: boolean;
  readonly webhooks: WebhookConfig;
  /** How often workers open snoozed conversations that are due (SNOOZE_SWEEP_INTERVAL_MS). */
  readonly snoozeSweepIntervalMs: number;
  /** Time limit of one `matches` condition of an automation. */
  readonly automationRegexTimeoutMs: number;
  /** Sending defaults of workspaces without settings of their own (SEND_*). */
  readonly sendDefaults: SendDefaults;
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
    const origins = env.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
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
    this.mediaDownloadConcurrency = env.MEDIA_DOWNLOAD_CONCURRENCY;
    this.waWebSocketUrl = env.WA_WEBSOCKET_URL ?? DEFAULT_WA_WEBSOCKET_URL;
    this.waVersion = env.WA_VERSION ? parseWaVersion(env.WA_VERSION) : undefined;
    this.waLogLevel = env.WA_LOG_LEVEL;
    this.waKeepAliveMs = env.WA_KEEPALIVE_MS;
    this.waMediaCa = waMediaCa;
    // Checked by valueProblems before any AppConfig is made.
    this.waProxy = env.WA_PROXY_URL ? parseProxyUrl(env.WA_PROXY_URL) : undefined;
    this.chat = {
      leaseTtlMs: env.CHAT_LEASE_TTL_MS,
      sweepIntervalMs: env.CHAT_SWEEP_INTERVAL_MS,
      resumePerSecond: env.CHAT_RESUME_PER_SECOND,
      resumeConcurrency: env.CHAT_RESUME_CONCURRENCY,
      reconnectBaseMs: env.CHAT_RECONNECT_BASE_MS,
      reconnectMaxMs: Math.max(env.CHAT_RECONNECT_MAX_MS, env.CHAT_RECONNECT_BASE_MS),
      maxFailures: env.CHAT_MAX_FAILURES,
      connectWaitMs: env.CHAT_CONNECT_WAIT_MS,
      maxSessionsPerWorker: env.CHAT_MAX_SESSIONS_PER_WORKER,
      handoverIntervalMs: env.CHAT_HANDOVER_INTERVAL_MS,
      passkey: { ceremony: env.CHAT_PASSKEY_CEREMONY, linkTtlMs: env.CHAT_PASSKEY_LINK_TTL_MS, timeoutMs: env.CHAT_PASSKEY_TIMEOUT_MS },
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
    this.snoozeSweepIntervalMs = env.SNOOZE_SWEEP_INTERVAL_MS;
    this.automationRegexTimeoutMs = env.AUTOMATION_REGEX_TIMEOUT_MS;
    this.sendDefaults = {
      minGapMs: env.SEND_MIN_GAP_MS,
      jitterMs: env.SEND_JITTER_MS,
      perMinute: env.SEND_PER_MINUTE,
      burst: env.SEND_BURST,
      typing: env.SEND_TYPING,
      firstContactsPerDay: env.SEND_FIRST_CONTACTS_PER_DAY,
      unansweredPerChat: env.SEND_UNANSWERED_PER_CHAT,
    };
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

/**
 * Validates the environment and returns the typed configuration, or throws a `ConfigError` that
 * names every bad variable at once (so an operator fixes them in one go, not one per restart).
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Blank values count as unset, so `FOO=` in a .env file falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvSchema, present, { exposeDefaultValues: true });
  const problems = schemaProblems(env);
  problems.push(...valueProblems(env, problems));

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

/** Reads `.env` from the working directory into `process.env` (without overriding), if present. */
export function loadDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
