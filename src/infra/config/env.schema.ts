import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value;
};

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+(\.\d+)?$|^\.\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/**
 * Every environment variable the service reads. `.env.example` documents each one; keep both in
 * step. Values arrive as strings and are converted here, so the rest of the code only sees
 * `AppConfig`.
 */
export class EnvSchema {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'development';

  @IsIn(['all', 'api', 'worker'])
  ROLE = 'all';

  @Transform(toInt)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 3000;

  /**
   * The address the HTTP port (and METRICS_PORT) binds: an IP address or a host name such as
   * localhost. Unset: every interface. Checked in app-config.ts (isIP), not by a pattern here.
   */
  @IsOptional()
  @IsString()
  HOST?: string;

  // Unset: http://localhost:<PORT> (app-config.ts).
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_URL?: string;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/inbox';

  @Transform(toBool)
  @IsBoolean()
  DB_MIGRATE_ON_START = true;

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 characters of letters, digits, ":", "_" or "-"' })
  REDIS_PREFIX = 'inbox';

  @IsOptional()
  @IsString()
  ENCRYPTION_KEY?: string;

  @IsString()
  CORS_ORIGINS = '*';

  // true/false, a hop count (1 = only the nearest proxy), or proxy addresses/subnets/presets.
  @Matches(/^(true|false|yes|no|on|off|\d{1,2}|(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?))*)$/i, {
    message: 'must be true, false, a number of proxy hops (e.g. 1), or a comma-separated list of proxy addresses (e.g. loopback, 10.0.0.0/8)',
  })
  TRUST_PROXY = 'false';

  @Matches(/^\d+(b|kb|mb)$/i, { message: 'must be a size such as 512kb or 5mb' })
  BODY_LIMIT = '5mb';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json`: one JSON object per line (production, log collectors); `pretty`: readable lines for a terminal. */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT = 'json';

  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM = 'WhatsApp Inbox <no-reply@localhost>';

  /** Inbox that receives the website contact form (`POST /api/contact`); unset: messages are logged. */
  @IsOptional()
  @IsEmail({}, { message: 'CONTACT_EMAIL must be an email address' })
  CONTACT_EMAIL?: string;

  @Transform(toBool)
  @IsBoolean()
  SUBSCRIPTIONS_ENFORCED = false;

  @Transform(toInt)
  @Min(1)
  @Max(64)
  @IsInt()
  WORKER_CONCURRENCY = 5;

  /**
   * Where the scan channel's sockets connect (Baileys' `waWebSocketUrl`). Unset: WhatsApp's own
   * endpoint. Pointing it at a loopback simulator lets the whole channel run without WhatsApp.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['ws', 'wss'], require_protocol: true }, { message: 'WA_WEBSOCKET_URL must be a ws:// or wss:// URL' })
  WA_WEBSOCKET_URL?: string;

  /** WhatsApp Web client version `2,3000,1043857760`; unset: the one bundled with Baileys (never fetched). */
  @IsOptional()
  @Matches(/^\s*\d{1,10}\s*[,.]\s*\d{1,10}\s*[,.]\s*\d{1,10}\s*$/, { message: 'WA_VERSION must be three integers such as 2,3000,1043857760' })
  WA_VERSION?: string;

  /** Baileys' own log level; it is very chatty below `warn` (and floods logs on "Bad MAC" bursts). */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  WA_LOG_LEVEL = 'warn';

  /**
   * Keepalive ping interval of scan-channel sockets; a connection that answers nothing is declared
   * lost (408) this long + 5 s after its last answer, then reconnected with backoff.
   */
  @Transform(toInt)
  @Min(1_000)
  @Max(600_000)
  @IsInt()
  WA_KEEPALIVE_MS = 30_000;

  /**
   * For tests and demos only: a PEM file of CA certificates the scan channel trusts for media
   * hosts (uploads and downloads), in addition to the system's; e.g. the WhatsApp simulator's
   * test CA. TLS checks stay on. Leave unset in production.
   */
  @IsOptional()
  @IsString()
  WA_MEDIA_CA_FILE?: string;
  // --- Scan channel sessions (docs/chat.md, "Scaling") ---

  /** How long a worker's hold on a workspace's socket lasts without renewal (renewed every third). */
  @Transform(toInt)
  @Min(300)
  @Max(600_000)
  @IsInt()
  CHAT_LEASE_TTL_MS = 30_000;

  /** How often each worker looks for linked sessions nobody holds (after a worker died). */
  @Transform(toInt)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  CHAT_SWEEP_INTERVAL_MS = 15_000;

  /** Sessions a worker starts per second when it resumes several (start-up, takeover). */
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  CHAT_RESUME_PER_SECOND = 20;

  /** Resumed sessions a worker lets connect at once (a new one starts when one connected or failed). */
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  CHAT_RESUME_CONCURRENCY = 10;

  /** First reconnect delay after a lost connection; doubles per failure (with jitter) up to the cap. */
  @Transform(toInt)
  @Min(10)
  @Max(600_000)
  @IsInt()
  CHAT_RECONNECT_BASE_MS = 2_000;

  @Transform(toInt)
  @Min(10)
  @Max(3_600_000)
  @IsInt()
  CHAT_RECONNECT_MAX_MS = 300_000;

  /** Consecutive failed connections after which a session stops and reports its error. */
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  CHAT_MAX_FAILURES = 12;

  /** How long `POST /api/chat/connect` waits for the first QR code or the connection. */
  @Transform(toInt)
  @Min(100)
  @Max(60_000)
  @IsInt()
  CHAT_CONNECT_WAIT_MS = 5_000;
  /** Where downloaded media is stored (a local directory, created on demand). */
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  MEDIA_DIR = './data/media';

  /** The Console's built files (Vite's output), served at `/`; missing: `/` keeps the 404. */
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  CONSOLE_DIR = './console/dist';

  /**
   * Let `media.url` of a send, and the media hosts of inbound scan messages (their `url` /
   * `directPath`, chosen by the sender; history-sync blobs too), be private, loopback or link-local
   * addresses. Off by default: the service would otherwise fetch from its own network on a
   * caller's or a contact's behalf.
   */
  @Transform(toBool)
  @IsBoolean()
  ALLOW_PRIVATE_MEDIA_URLS = false;

  // --- Outbound webhooks (docs/webhooks.md) ---

  /** Let webhook URLs use plain `http://` (default: `https://` only). */
  @Transform(toBool)
  @IsBoolean()
  ALLOW_HTTP_WEBHOOKS = false;

  /** Let webhook URLs reach private, loopback, link-local and other internal addresses. */
  @Transform(toBool)
  @IsBoolean()
  ALLOW_PRIVATE_WEBHOOKS = false;

  /** How long one delivery attempt may take (connect, send, answer). */
  @Transform(toInt)
  @Min(100)
  @Max(60_000)
  @IsInt()
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** Waits before each retry of a failed delivery, e.g. `5s,5m,30m,2h,5h,10h,10h` (Standard Webhooks). */
  @Matches(/^\s*\d{1,7}\s*(ms|s|m|h)\s*(,\s*\d{1,7}\s*(ms|s|m|h)\s*){0,19}$/i, {
    message: 'must be a comma-separated list of 1-20 durations such as 5s,5m,30m,2h',
  })
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

  /** Endpoint drains (delivery jobs) a worker process runs at once (they mostly wait on the network). */
  @Transform(toInt)
  @Min(1)
  @Max(500)
  @IsInt()
  WEBHOOK_CONCURRENCY = 50;

  /** Attempts in flight to one endpoint (its one drain's); a slow endpoint waits, others pass. */
  @Transform(toInt)
  @Min(1)
  @Max(100)
  @IsInt()
  WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  /** How often workers wake endpoints whose overdue deliveries lost their wake-up (Redis flushed, process killed). */
  @Transform(toInt)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  WEBHOOK_SWEEP_INTERVAL_MS = 30_000;
  // --- Content: automations and knowledge (docs/content.md) ---

  /**
   * How long one `matches` condition of an automation may run on a message before it counts as
   * not matching (it runs in a worker thread, which is stopped then).
   */
  @Transform(toInt)
  @Min(10)
  @Max(10_000)
  @IsInt()
  AUTOMATION_REGEX_TIMEOUT_MS = 250;

  /** The rank (0..1) the best article must reach for `answer_from_knowledge` to reply with it. */
  @Transform(toNumber)
  @Min(0)
  @Max(1)
  @IsNumber({}, { message: 'KNOWLEDGE_ANSWER_MIN_RANK must be a number between 0 and 1' })
  KNOWLEDGE_ANSWER_MIN_RANK = 0.15;
  // --- Cloud channel: the platform's Meta app (docs/cloud-channel.md) ---

  /** The platform's Meta app id (App Dashboard → App settings → Basic); Embedded Signup needs it. */
  @IsOptional()
  @Matches(/^\d{1,32}$/, { message: 'META_APP_ID must be the numeric id of the Meta app' })
  META_APP_ID?: string;

  /** The Meta app's secret: verifies provider callbacks (X-Hub-Signature-256) and exchanges signup codes. */
  @IsOptional()
  @IsString()
  META_APP_SECRET?: string;

  /** The text Meta echoes when it verifies the callback URL (App Dashboard → WhatsApp → Configuration). */
  @IsOptional()
  @IsString()
  META_VERIFY_TOKEN?: string;

  /** The Facebook Login for Business configuration id of Embedded Signup. */
  @IsOptional()
  @Matches(/^\d{1,32}$/, { message: 'META_CONFIG_ID must be the numeric id of a Facebook Login for Business configuration' })
  META_CONFIG_ID?: string;

  /** Where the Graph API answers; a loopback fake in tests. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'META_GRAPH_URL must be an http(s) URL' })
  META_GRAPH_URL = 'https://graph.facebook.com';

  /** The Graph API version every call names. */
  @Matches(/^v\d{1,3}\.\d{1,2}$/, { message: 'META_GRAPH_VERSION must look like v23.0' })
  META_GRAPH_VERSION = 'v23.0';
  // --- Sign in with Google (docs/accounts.md, "Google sign-in") ---

  /** The OpenID Connect issuer discovered for Google sign-in (`<issuer>/.well-known/openid-configuration`). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'GOOGLE_ISSUER must be an https:// URL' })
  GOOGLE_ISSUER = 'https://accounts.google.com';

  /** OAuth client of the Google Cloud project; Google sign-in is offered only when both are set. */
  @IsOptional()
  @IsString()
  GOOGLE_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  GOOGLE_CLIENT_SECRET?: string;

  // --- Media store (docs/deployment.md, "Media") ---

  /** `local`: MEDIA_DIR (one machine); `s3`: an S3-compatible bucket shared by every process. */
  @IsIn(['local', 's3'])
  MEDIA_STORE = 'local';

  /** S3-compatible endpoint (MinIO, R2, Ceph, …); unset: AWS S3 of S3_REGION. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'S3_ENDPOINT must be an http:// or https:// URL' })
  S3_ENDPOINT?: string;

  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and dashes)' })
  S3_BUCKET?: string;

  @Matches(/^[a-z0-9-]{1,32}$/, { message: 'S3_REGION must be a region name such as eu-central-1' })
  S3_REGION = 'us-east-1';

  /** Static credentials; unset: the AWS SDK's default chain (AWS_* variables, instance or pod role). */
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** `bucket` in the path instead of the host name: most self-hosted stores (MinIO) need it. */
  @Transform(toBool)
  @IsBoolean()
  S3_FORCE_PATH_STYLE = false;

  /** Prepended to every object key, e.g. `inbox/` to share a bucket. */
  @Matches(/^([A-Za-z0-9_.-]+\/)*$/, { message: 'S3_KEY_PREFIX must be empty or path segments ending with "/", e.g. inbox/media/' })
  S3_KEY_PREFIX = '';

  // --- Metrics (docs/operations.md) ---

  /** Bearer token `GET /metrics` requires; unset: the endpoint is public. */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,256}$/, { message: 'METRICS_TOKEN must be 16-256 visible ASCII characters without spaces' })
  METRICS_TOKEN?: string;

  /** A second, metrics-only HTTP port (the only port of a ROLE=worker process); unset: none. */
  @IsOptional()
  @Transform(toInt)
  @Min(1)
  @Max(65535)
  @IsInt()
  METRICS_PORT?: number;
}
