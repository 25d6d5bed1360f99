import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { ChannelsEnv } from './channels-env.schema.js';
import { toBool, toInt, toNumber } from './env-transforms.js';

/** The features' variables: media, outbound webhooks, automations and knowledge, Google sign-in. Part of EnvSchema. */
export class FeaturesEnv extends ChannelsEnv {
  // --- Media (docs/scan-inbound.md, docs/deployment.md "Media") ---

  /** Where downloaded media is stored (a local directory, created on demand). */
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  MEDIA_DIR = './data/media';

  /**
   * Let `media.url` of a send, and the media hosts of inbound scan messages (their `url` /
   * `directPath`, chosen by the sender; history-sync blobs too), be private, loopback or link-local
   * addresses. Off by default: the service would otherwise fetch from its own network on a
   * caller's or a contact's behalf.
   */
  @Transform(toBool)
  @IsBoolean()
  ALLOW_PRIVATE_MEDIA_URLS = false;

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

  // --- Inbox (docs/inbox.md) ---

  /** How often workers open snoozed conversations whose `snoozed_until` has come (a snooze ends at most this late). */
  @Transform(toInt)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  SNOOZE_SWEEP_INTERVAL_MS = 15_000;

  // --- Sending: the scan numbers' paced outbound queue and caps (docs/sending.md) ---
  // Defaults of workspaces that saved no settings of their own. A workspace's own settings
  // (PATCH /api/chat/limits) keep to narrower bounds; these may go further (0 gap: no pacing,
  // for development and tests, never for a personal number).

  /** Least time between two sends of one number, in ms. */
  @Transform(toInt)
  @Min(0)
  @Max(600_000)
  @IsInt()
  SEND_MIN_GAP_MS = 1500;

  /** Random extra time (0..this) added to each gap, in ms. */
  @Transform(toInt)
  @Min(0)
  @Max(600_000)
  @IsInt()
  SEND_JITTER_MS = 2500;

  /** Sustained sends per minute of one number (a token bucket of SEND_BURST). */
  @Transform(toInt)
  @Min(1)
  @Max(100_000)
  @IsInt()
  SEND_PER_MINUTE = 12;

  /** Sends a number may make at the least gap before the per-minute pace holds it. */
  @Transform(toInt)
  @Min(1)
  @Max(100_000)
  @IsInt()
  SEND_BURST = 4;

  /** Which queued sends show "typing…" first: automations (default), all, off. */
  @IsIn(['automations', 'all', 'off'])
  SEND_TYPING: 'automations' | 'all' | 'off' = 'automations';

  /** New chats (no message from the contact yet) a number may start in any 24 hours. */
  @Transform(toInt)
  @Min(1)
  @Max(100_000)
  @IsInt()
  SEND_FIRST_CONTACTS_PER_DAY = 20;

  /** Messages one chat may get in 24 hours without a reply. */
  @Transform(toInt)
  @Min(1)
  @Max(100_000)
  @IsInt()
  SEND_UNANSWERED_PER_CHAT = 5;

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
}
