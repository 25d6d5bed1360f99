import { randomBytes } from 'node:crypto';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { Logger } from 'nestjs-pino';
import supertest from 'supertest';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { HTTP_APP_OPTIONS } from '../../src/bootstrap.js';
import { type AppConfig, loadConfig } from '../../src/infra/config/app-config.js';
import { configureApp } from '../../src/infra/http/configure-app.js';
import { REDIS } from '../../src/infra/redis/redis.module.js';
import { Factories } from './factories.js';
import { statusRecorder } from './status-recorder.js';
import { TEST_REDIS_URL, createTestDatabase, dropTestDatabase, redisPrefixOfRun, testRunId } from './test-env.js';

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (same names as `.env.example`). */
  env?: Record<string, string>;
  /** Extra controllers or providers, e.g. a route that throws, or a fake channel gateway. */
  controllers?: Type[];
  providers?: Provider[];
  imports?: (Type | DynamicModule)[];
  /** Adjust the testing module before compiling (override providers). */
  customize?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /**
   * Another replica of `app`: same database and Redis prefix, as two processes behind a load
   * balancer. Closing the replica leaves both to their owner.
   */
  replicaOf?: TestApp;
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  redis: Redis;
  factories: Factories;
  /** A fresh supertest request against the app's HTTP server. */
  http: () => supertest.Agent;
  databaseName: string;
  close: () => Promise<void>;
}

/** Environment every test app starts with: its own database and Redis prefix, quiet logs. */
export function testEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `${redisPrefixOfRun(testRunId())}:${randomBytes(4).toString('hex')}`,
    DB_MIGRATE_ON_START: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    // No pacing or caps by default: the sending specs set their workspace's own (docs/sending.md).
    SEND_MIN_GAP_MS: '0',
    SEND_JITTER_MS: '0',
    SEND_PER_MINUTE: '100000',
    SEND_BURST: '100000',
    SEND_TYPING: 'off',
    SEND_FIRST_CONTACTS_PER_DAY: '100000',
    SEND_UNANSWERED_PER_CHAT: '100000',
    ...extra,
  };
}

/**
 * Boots the whole application (HTTP plumbing, guards, real Postgres and Redis) on a database
 * cloned from the run's migrated template. Call `close()` in afterAll: it drops the database
 * and deletes the app's Redis keys.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const primary = options.replicaOf;
  const database = primary ? { name: primary.databaseName, url: primary.config.databaseUrl } : await createTestDatabase();
  const shared: Record<string, string> = primary ? { REDIS_PREFIX: primary.config.redisPrefix } : {};
  const config = loadConfig(testEnv(database.url, { ...shared, ...options.env }));
  let builder = Test.createTestingModule({
    imports: [AppModule.forRoot(config), ...(options.imports ?? [])],
    controllers: options.controllers ?? [],
    providers: options.providers ?? [],
  });
  if (options.customize) builder = options.customize(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(HTTP_APP_OPTIONS);
  app.useLogger(app.get(Logger));
  // Every (operation, status) the suite sees must be declared in the OpenAPI document: recorded
  // here, checked once the run ends (global-teardown.mjs).
  app.use(statusRecorder(app, testRunId()));
  configureApp(app, config);
  await app.init();

  const dataSource = app.get<DataSource>(getDataSourceToken());
  const redis = app.get<Redis>(REDIS);
  const server = app.getHttpServer();
  return {
    app,
    config,
    dataSource,
    redis,
    factories: new Factories(app),
    http: () => supertest.agent(server),
    databaseName: database.name,
    close: async () => {
      if (primary) return app.close();
      await deleteKeys(redis, `${config.redisPrefix}:*`).catch(() => undefined);
      await app.close();
      await dropTestDatabase(database.name);
    },
  };
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
