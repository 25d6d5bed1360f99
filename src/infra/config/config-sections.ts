// The typed sections of AppConfig, by concern (each names its variables and its doc).

export type Role = 'all' | 'api' | 'worker';
export type NodeEnv = 'development' | 'production' | 'test';

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
  /** CHAT_MAX_SESSIONS_PER_WORKER: the most sockets one worker holds; also its placement weight. */
  maxSessionsPerWorker: number;
  /** CHAT_HANDOVER_INTERVAL_MS: a worker hands at most one number to its new home per interval. */
  handoverIntervalMs: number;
  /** CHAT_PASSKEY_*: the opt-in passkey ceremony (docs/passkey.md). */
  passkey: { ceremony: boolean; linkTtlMs: number; timeoutMs: number };
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

/** How a number sends when its workspace saved no settings (SEND_*; docs/sending.md). */
export interface SendDefaults {
  minGapMs: number;
  jitterMs: number;
  perMinute: number;
  burst: number;
  typing: 'automations' | 'all' | 'off';
  firstContactsPerDay: number;
  unansweredPerChat: number;
}
