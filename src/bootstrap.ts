import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './infra/config/app-config.js';
import { configureApp } from './infra/http/configure-app.js';

/** Options every HTTP app is created with (main.ts and the test harness). */
export const HTTP_APP_OPTIONS = { bodyParser: false, rawBody: true, bufferLogs: true } as const;

/**
 * Starts what `ROLE` asks for: `api` and `all` serve HTTP; `worker` runs only the queue
 * processors and channel sessions (no port is opened).
 */
export async function bootstrap(config: AppConfig): Promise<INestApplicationContext> {
  const module = AppModule.forRoot(config);
  if (!config.runsHttp) {
    const context = await NestFactory.createApplicationContext(module, { bufferLogs: true });
    context.useLogger(context.get(Logger));
    context.enableShutdownHooks();
    warnAboutDevelopmentKey(context, config);
    return context;
  }
  const app = await NestFactory.create<NestExpressApplication>(module, HTTP_APP_OPTIONS);
  app.useLogger(app.get(Logger));
  configureApp(app, config);
  await app.listen(config.port);
  warnAboutDevelopmentKey(app, config);
  app.get(Logger).log(`${config.role} listening on ${config.port} (${config.publicUrl})`, 'Bootstrap');
  return app;
}

function warnAboutDevelopmentKey(context: INestApplicationContext, config: AppConfig): void {
  if (!config.usingDevelopmentKey) return;
  context
    .get(Logger)
    .warn('ENCRYPTION_KEY is not set: using the fixed development key. Never run production like this.', 'Bootstrap');
}
