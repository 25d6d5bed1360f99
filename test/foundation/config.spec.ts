import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../src/infra/config/app-config.js';

/** The message `loadConfig` refuses `env` with (fails the test when it accepts it). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`configuration was accepted: ${JSON.stringify(env)}`);
}

const validKey = (): string => randomBytes(32).toString('base64');

describe('loadConfig', () => {
  it('starts with no variables at all, using defaults that work on this machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      role: 'all',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/inbox',
      redisUrl: 'redis://127.0.0.1:6379',
      corsOrigins: '*',
      bodyLimit: '5mb',
      bodyLimitBytes: 5 * 1024 * 1024,
      migrateOnStart: true,
    });
    expect(config.runsHttp).toBe(true);
    expect(config.runsWorkers).toBe(true);
  });

  it('builds the default PUBLIC_URL from PORT, so links point where the service listens', () => {
    expect(loadConfig({ PORT: '8081' }).publicUrl).toBe('http://localhost:8081');
    expect(loadConfig({ PORT: '8081', PUBLIC_URL: 'https://inbox.example.com/' }).publicUrl).toBe('https://inbox.example.com');
  });

  it('treats blank values as unset, so `PORT=` in a .env file falls back to the default', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', ROLE: '' })).toMatchObject({
      port: 3000,
      role: 'all',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/inbox',
    });
  });

  it('reads TRUST_PROXY as a switch, a hop count or a list of proxy addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'yes' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('reads HOST as an address or host name to bind (unset: every interface) and LOG_FORMAT as json or pretty', () => {
    expect(loadConfig({}).host).toBeUndefined();
    for (const host of ['127.0.0.1', '0.0.0.0', '::1', 'localhost', 'inbox.internal']) expect(loadConfig({ HOST: host }).host).toBe(host);
    expect(loadConfig({ HOST: '[::1]' }).host).toBe('::1');
    for (const host of ['300.1.2.3', '127.0.0.1:3000', 'http://localhost', 'a b']) expect(refusal({ HOST: host })).toContain(`HOST must be an IP address`);
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(refusal({ LOG_FORMAT: 'text' })).toContain('LOG_FORMAT');
  });

  it('converts values to their types', () => {
    const config = loadConfig({
      PORT: '8080',
      ROLE: 'worker',
      TRUST_PROXY: 'true',
      DB_MIGRATE_ON_START: 'no',
      CORS_ORIGINS: 'https://app.example, https://admin.example',
      PUBLIC_URL: 'https://inbox.example/',
    });
    expect(config).toMatchObject({
      port: 8080,
      role: 'worker',
      trustProxy: true,
      migrateOnStart: false,
      corsOrigins: ['https://app.example', 'https://admin.example'],
      publicUrl: 'https://inbox.example',
    });
    expect(config.runsHttp).toBe(false);
    expect(config.secureCookies).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['ROLE', 'both'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['DATABASE_URL', 'mysql://root@127.0.0.1/inbox'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_PREFIX', 'has spaces'],
    ['BODY_LIMIT', 'lots'],
    ['LOG_LEVEL', 'loud'],
    ['DB_MIGRATE_ON_START', 'maybe'],
    ['TRUST_PROXY', 'sometimes'],
    ['SMTP_URL', 'mail.example:25'],
    ['WORKER_CONCURRENCY', '0'],
    ['MEDIA_DOWNLOAD_CONCURRENCY', '0'],
    ['MEDIA_DOWNLOAD_CONCURRENCY', '257'],
    ['CHAT_LEASE_TTL_MS', '10'],
    ['CHAT_SWEEP_INTERVAL_MS', 'often'],
    ['CHAT_RESUME_PER_SECOND', '0'],
    ['CHAT_RESUME_CONCURRENCY', '0'],
    ['CHAT_RECONNECT_BASE_MS', '-5'],
    ['CHAT_MAX_FAILURES', '0'],
    ['CHAT_CONNECT_WAIT_MS', '120000'],
    ['CORS_ORIGINS', 'app.example.com'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
    ['WA_WEBSOCKET_URL', 'https://web.whatsapp.com/ws/chat'],
    ['WA_WEBSOCKET_URL', 'web.whatsapp.com'],
    ['WA_VERSION', '2.3000'],
    ['WA_VERSION', 'latest'],
    ['WA_LOG_LEVEL', 'chatty'],
    ['WA_KEEPALIVE_MS', '500'],
    ['AUTOMATION_REGEX_TIMEOUT_MS', '5'],
    ['AUTOMATION_REGEX_TIMEOUT_MS', 'forever'],
    ['KNOWLEDGE_ANSWER_MIN_RANK', '1.5'],
    ['KNOWLEDGE_ANSWER_MIN_RANK', 'high'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it('runs media downloads more at once than other jobs, each setting on its own', () => {
    expect(loadConfig({})).toMatchObject({ workerConcurrency: 5, mediaDownloadConcurrency: 20 });
    expect(loadConfig({ WORKER_CONCURRENCY: '2', MEDIA_DOWNLOAD_CONCURRENCY: '64' })).toMatchObject({ workerConcurrency: 2, mediaDownloadConcurrency: 64 });
  });

  it('connects the scan channel to WhatsApp with the bundled version unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ waWebSocketUrl: 'wss://web.whatsapp.com/ws/chat', waVersion: undefined, waLogLevel: 'warn', waKeepAliveMs: 30_000 });
    expect(loadConfig({ WA_WEBSOCKET_URL: 'ws://127.0.0.1:8081/ws/chat', WA_VERSION: '2,3000,1043857760', WA_LOG_LEVEL: 'error' })).toMatchObject({
      waWebSocketUrl: 'ws://127.0.0.1:8081/ws/chat',
      waVersion: [2, 3000, 1043857760],
      waLogLevel: 'error',
    });
    expect(loadConfig({ WA_VERSION: '2.3000.1' }).waVersion).toEqual([2, 3000, 1]);
    expect(loadConfig({ WA_KEEPALIVE_MS: '2000' }).waKeepAliveMs).toBe(2000);
  });

  it('reads the automations and knowledge settings', () => {
    expect(loadConfig({})).toMatchObject({ automationRegexTimeoutMs: 250, knowledgeAnswerMinRank: 0.15 });
    expect(loadConfig({ AUTOMATION_REGEX_TIMEOUT_MS: '1000', KNOWLEDGE_ANSWER_MIN_RANK: '0.3' })).toMatchObject({
      automationRegexTimeoutMs: 1000,
      knowledgeAnswerMinRank: 0.3,
    });
    expect(loadConfig({ KNOWLEDGE_ANSWER_MIN_RANK: '0' }).knowledgeAnswerMinRank).toBe(0);
  });

  it('reads WA_MEDIA_CA_FILE at boot: a PEM file of certificates, or a refusal naming it', () => {
    expect(loadConfig({}).waMediaCa).toBeUndefined();
    const ca = loadConfig({ WA_MEDIA_CA_FILE: 'test/whatsapp-sim/certs/ca.pem' }).waMediaCa;
    expect(ca?.file).toMatch(/test\/whatsapp-sim\/certs\/ca\.pem$/);
    expect(ca?.pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(refusal({ WA_MEDIA_CA_FILE: 'test/whatsapp-sim/certs/missing.pem' })).toMatch(/WA_MEDIA_CA_FILE cannot be read \(ENOENT/);
    expect(refusal({ WA_MEDIA_CA_FILE: 'package.json' })).toContain('WA_MEDIA_CA_FILE must be a PEM file of CA certificates');
  });

  it('reads the scan-session timings, with the reconnect cap never below its base', () => {
    expect(loadConfig({}).chat).toEqual({
      leaseTtlMs: 30_000,
      sweepIntervalMs: 15_000,
      resumePerSecond: 20,
      resumeConcurrency: 10,
      reconnectBaseMs: 2_000,
      reconnectMaxMs: 300_000,
      maxFailures: 12,
      connectWaitMs: 5_000,
      maxSessionsPerWorker: 1_000,
      handoverIntervalMs: 2_000,
      passkey: { ceremony: false, linkTtlMs: 300_000, timeoutMs: 600_000 },
    });
    expect(loadConfig({ CHAT_PASSKEY_CEREMONY: 'true', CHAT_PASSKEY_LINK_TTL_MS: '60000' }).chat.passkey).toEqual({
      ceremony: true,
      linkTtlMs: 60_000,
      timeoutMs: 600_000,
    });
    expect(refusal({ CHAT_PASSKEY_LINK_TTL_MS: '10' })).toContain('CHAT_PASSKEY_LINK_TTL_MS');
    expect(loadConfig({ CHAT_MAX_SESSIONS_PER_WORKER: '10' }).chat.maxSessionsPerWorker).toBe(10);
    expect(refusal({ CHAT_MAX_SESSIONS_PER_WORKER: '0' })).toContain('CHAT_MAX_SESSIONS_PER_WORKER');
    expect(loadConfig({ CHAT_RECONNECT_BASE_MS: '5000', CHAT_RECONNECT_MAX_MS: '1000' }).chat.reconnectMaxMs).toBe(5000);
  });

  it('configures Google sign-in only with both client id and secret; the issuer must be https except on loopback', () => {
    expect(loadConfig({}).google).toBeUndefined();
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's3cret' }).google).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 's3cret',
    });
    expect(loadConfig({ GOOGLE_ISSUER: 'http://127.0.0.1:9000/', GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' }).google?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
    expect(refusal({ GOOGLE_CLIENT_ID: 'a' })).toContain('GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set');
    expect(refusal({ GOOGLE_CLIENT_SECRET: 'b' })).toContain('GOOGLE_CLIENT_ID is required when GOOGLE_CLIENT_SECRET is set');
    expect(refusal({ GOOGLE_ISSUER: 'http://accounts.example' })).toContain('GOOGLE_ISSUER must be an https:// URL');
    expect(refusal({ GOOGLE_ISSUER: 'https://accounts.example/?x=1' })).toContain('GOOGLE_ISSUER must be a plain issuer URL');
    expect(refusal({ GOOGLE_ISSUER: 'accounts.google.com' })).toContain('GOOGLE_ISSUER');
  });

  it('says one thing per bad variable, and for a number that is none, that it is none', () => {
    const lines = refusal({ PORT: 'abc' })
      .split('\n')
      .filter((line) => line.includes('PORT'));
    expect(lines).toEqual([expect.stringContaining('PORT must be an integer number')]);
    expect(refusal({ PORT: 'abc', METRICS_PORT: 'abc' })).not.toContain('must differ');
    expect(refusal({ CHAT_LEASE_TTL_MS: '1.5' })).toContain('CHAT_LEASE_TTL_MS must be an integer number');
    expect(refusal({ KNOWLEDGE_ANSWER_MIN_RANK: 'high' })).toContain('KNOWLEDGE_ANSWER_MIN_RANK must be a number between 0 and 1');
  });

  it('refuses at once what the service could not parse later: URLs, proxy addresses', () => {
    expect(refusal({ DATABASE_URL: 'postgres://[bad/db' })).toContain('DATABASE_URL is not a valid URL');
    expect(refusal({ REDIS_URL: 'redis://127.0.0.1:notaport' })).toContain('REDIS_URL is not a valid URL');
    for (const value of ['bad', '1.2.3', '10.0.0.0/99', 'loopback, 10.0.0.1/8/8']) {
      expect(refusal({ TRUST_PROXY: value })).toContain('TRUST_PROXY');
    }
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8, 203.0.113.7, uniquelocal' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '203.0.113.7',
      'uniquelocal',
    ]);
  });

  it('never quotes a value that may be a secret', () => {
    const secrets = {
      METRICS_TOKEN: 'short secret',
      DATABASE_URL: 'mysql://admin:hunter2@db/x',
      SMTP_URL: 'nope://u:hunter3@mail',
      REDIS_URL: 'redis://:hunter4@[x',
    };
    const message = refusal(secrets);
    for (const [name, value] of Object.entries(secrets)) {
      expect(message).toContain(name);
      expect(message).not.toContain(value);
    }
    expect(message).not.toMatch(/hunter/);
    expect(refusal({ LOG_LEVEL: 'chatty' })).toContain('got "chatty"');
  });

  it('accepts origins with a port, and * among them, for CORS_ORIGINS', () => {
    expect(loadConfig({ CORS_ORIGINS: 'http://localhost:5173, https://app.example.com' }).corsOrigins).toEqual([
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com,*' }).corsOrigins).toBe('*');
  });

  it('names every bad variable in one message, not just the first', () => {
    const message = refusal({ PORT: 'x', ROLE: 'everything', REDIS_URL: 'nope', LOG_LEVEL: 'chatty' });
    for (const name of ['PORT', 'ROLE', 'REDIS_URL', 'LOG_LEVEL']) expect(message).toContain(name);
    expect(message).not.toContain('DATABASE_URL');
  });

  describe('ENCRYPTION_KEY', () => {
    it('is required in production: a missing key refuses to start', () => {
      expect(refusal({ NODE_ENV: 'production' })).toMatch(/ENCRYPTION_KEY is required/);
    });

    it('accepts 32 random bytes in base64 in production and uses exactly those bytes', () => {
      const key = validKey();
      const config = loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key });
      expect(config.usingDevelopmentKey).toBe(false);
      expect(config.encryptionKey.equals(Buffer.from(key, 'base64'))).toBe(true);
    });

    it('falls back to the fixed development key outside production and flags it', () => {
      const first = loadConfig({ NODE_ENV: 'development' });
      const second = loadConfig({});
      expect(first.usingDevelopmentKey).toBe(true);
      expect(first.encryptionKey).toHaveLength(32);
      // Fixed, so data encrypted by one development run is readable by the next.
      expect(first.encryptionKey.equals(second.encryptionKey)).toBe(true);
    });

    it.each([
      ['16 bytes', randomBytes(16).toString('base64')],
      ['64 bytes', randomBytes(64).toString('base64')],
      ['not base64', 'this is not a key at all!'],
    ])('refuses a key of the wrong shape (%s), in development too', (_, key) => {
      for (const NODE_ENV of ['development', 'production']) {
        expect(refusal({ NODE_ENV, ENCRYPTION_KEY: key })).toContain('ENCRYPTION_KEY must be 32 random bytes');
      }
    });

    it('never prints the key it refuses', () => {
      const key = randomBytes(16).toString('base64');
      expect(refusal({ ENCRYPTION_KEY: key })).not.toContain(key);
    });
  });
});
