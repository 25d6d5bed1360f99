import { Writable } from 'node:stream';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { AppConfig } from '../../src/infra/config/app-config.js';
import { ROOT_LOGGER, createRootLogger } from '../../src/infra/logging/logging.module.js';

export type LogLine = Record<string, unknown> & { level: number; msg?: string };

/**
 * Reads what an app logs: pass `capture.customize` to createTestApp (with a LOG_LEVEL), and every
 * line of that app's root logger (request lines, Nest logs, error logs) lands in `lines`.
 * Logs made outside any request go to the first app of the test file (nestjs-pino keeps one
 * out-of-request logger per module registry), so capture on the file's first app to see those.
 */
export class LogCapture {
  readonly lines: LogLine[] = [];
  private waiters: { predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  private readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) this.receive(JSON.parse(text) as LogLine);
      done();
    },
  });

  readonly customize = (builder: TestingModuleBuilder): TestingModuleBuilder =>
    builder.overrideProvider(ROOT_LOGGER).useFactory({ factory: (config: AppConfig) => createRootLogger(config, this.stream), inject: [AppConfig] });

  /** Every captured line as one string, for "never contains" checks. */
  text(): string {
    return this.lines.map((line) => JSON.stringify(line)).join('\n');
  }

  /** Lines that mention `needle` anywhere (a request id, a path). */
  mentioning(needle: string): LogLine[] {
    return this.lines.filter((line) => JSON.stringify(line).includes(needle));
  }

  /** The first line (already logged or still to come) that matches, within `timeoutMs`. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs = 5000): Promise<LogLine> {
    const found = this.lines.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = { predicate, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching log line within ${timeoutMs} ms`));
      }, timeoutMs).unref();
    });
  }

  private receive(line: LogLine): void {
    this.lines.push(line);
    for (const waiter of this.waiters.filter((w) => w.predicate(line))) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(line);
    }
  }
}
