import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { ServiceEnv } from './service-env.schema.js';
import { toBool, toInt } from './env-transforms.js';

/** The channels' variables: the scan channel (WA_*, CHAT_*) and the platform's Meta app (META_*). Part of EnvSchema. */
export class ChannelsEnv extends ServiceEnv {
  // --- Scan channel (docs/chat.md) ---

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

  /**
   * The egress proxy of every number that has none of its own (`PUT /api/chat/proxy`):
   * `http://`, `https://` (HTTP CONNECT) or `socks5://`, with optional `user:password@`. Its
   * socket and media transfers go through it. Checked at start-up (env-checks.ts).
   */
  @IsOptional()
  @IsString()
  WA_PROXY_URL?: string;

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

  /**
   * The most numbers one worker process holds, and its weight in placement (a worker with twice
   * the cap is home to about twice the numbers). A full worker takes no more; numbers no worker
   * has room for are reported unplaced (docs/operations.md, "Placement").
   */
  @Transform(toInt)
  @Min(1)
  @Max(100_000)
  @IsInt()
  CHAT_MAX_SESSIONS_PER_WORKER = 1_000;

  /** A worker hands at most one number to its new home per this interval (membership changed). */
  @Transform(toInt)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  CHAT_HANDOVER_INTERVAL_MS = 2_000;

  /**
   * Runs the companion side of WhatsApp's passkey check for gated accounts, with the assertion
   * from the person's browser through the extension (docs/passkey.md). Off by default: the
   * handshake is unofficial, a risk for the number's standing.
   */
  @Transform(toBool)
  @IsBoolean()
  CHAT_PASSKEY_CEREMONY = false;

  /** How long a one-time link for the passkey extension stays valid. */
  @Transform(toInt)
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  CHAT_PASSKEY_LINK_TTL_MS = 300_000;

  /** How long a passkey ceremony may take from WhatsApp's request to the confirmation. */
  @Transform(toInt)
  @Min(10_000)
  @Max(3_600_000)
  @IsInt()
  CHAT_PASSKEY_TIMEOUT_MS = 600_000;

  /** How long `POST /api/chat/connect` waits for the first QR code or the connection. */
  @Transform(toInt)
  @Min(100)
  @Max(60_000)
  @IsInt()
  CHAT_CONNECT_WAIT_MS = 5_000;

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
}
