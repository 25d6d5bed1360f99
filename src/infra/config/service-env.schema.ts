import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { toBool, toInt } from './env-transforms.js';

/**
 * The service's own variables: process and HTTP, Postgres and Redis, the encryption key, logging,
 * mail, subscriptions, workers, the Console's files and the metrics endpoint. One part of
 * EnvSchema (env.schema.ts), which extends the parts in turn.
 */
export class ServiceEnv {
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
   * localhost. Unset: every interface. Checked in env-checks.ts (isIP), not by a pattern here.
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
  @Matches(
    /^(true|false|yes|no|on|off|\d{1,2}|(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?))*)$/i,
    {
      message: 'must be true, false, a number of proxy hops (e.g. 1), or a comma-separated list of proxy addresses (e.g. loopback, 10.0.0.0/8)',
    },
  )
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

  /** Media downloads (scan and Cloud API) a worker runs at once: they wait on the network and the disk, not the CPU. */
  @Transform(toInt)
  @Min(1)
  @Max(256)
  @IsInt()
  MEDIA_DOWNLOAD_CONCURRENCY = 20;

  // --- Console ---

  /** The Console's built files (Vite's output), served at `/`; missing: `/` keeps the 404. */
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  CONSOLE_DIR = './console/dist';

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
