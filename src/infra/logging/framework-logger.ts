import type { LoggerService } from '@nestjs/common';

/**
 * Nest's own start-up chatter: one line per module ("… dependencies initialized"), per controller
 * and per route ("Mapped {/api/health, GET} route"), "Starting Nest application…". About 250
 * lines on every start that bury the one that matters (the start-up summary), so they are
 * logged at `debug`: `LOG_LEVEL=debug` shows them again.
 */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestApplicationContext']);

/** Nest's logger contract puts the context last. */
const isFrameworkLine = (params: unknown[]): boolean => {
  const context = params.at(-1);
  return typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
};

/** The Nest logger of the service: `inner` (nestjs-pino), with the framework's info lines moved to debug. */
export class FrameworkQuietLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    if (isFrameworkLine(params)) this.inner.debug?.(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}
