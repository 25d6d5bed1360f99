import { Writable } from 'node:stream';
import { AppConfig } from '../../src/infra/config/app-config.js';
import { LOGGER_PARAMS, loggerParams } from '../../src/infra/logging/logging.module.js';
import type { TestAppOptions } from '../support/test-app.js';

export type LogLine = Record<string, unknown> & { level: number; msg?: string };

/**
 * Collects the app's JSON log lines. nestjs-pino builds one root logger per module registry (per
 * Jest test file) from the first app that logs, so the app given `options()` must be the first
 * app of its file; later apps of the same file log into the same capture.
 */
export class LogCapture {
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  private waiters: { predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];

  private readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) this.receive(text);
      done();
    },
  });

  /** `createTestApp` options that send the app's log here. */
  customize(): NonNullable<TestAppOptions['customize']> {
    return (builder) =>
      builder
        .overrideProvider(LOGGER_PARAMS)
        .useFactory({ factory: (config: AppConfig) => loggerParams(config, this.stream), inject: [AppConfig] });
  }

  /** Everything logged so far, as one string to search. */
  text(): string {
    return this.raw.join('\n');
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

  private receive(text: string): void {
    const line = JSON.parse(text) as LogLine;
    this.raw.push(text);
    this.lines.push(line);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(line)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(line);
      }
    }
  }
}

interface LoggedMail {
  to: string;
  subject: string;
  text: string;
}

/** The mail logged instead of sent (SMTP_URL unset) to `to` whose subject matches. */
export async function loggedMail(capture: LogCapture, to: string, subject: string): Promise<LoggedMail> {
  const line = await capture.waitFor((l) => {
    const mail = l.mail as LoggedMail | undefined;
    return l.msg === 'mail not sent (SMTP_URL is unset)' && mail?.to === to && mail.subject === subject;
  });
  return line.mail as LoggedMail;
}

/** The first link in `text` that contains `path`. */
export function linkInText(text: string, path: string): URL {
  const match = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!match) throw new Error(`no ${path} link in:\n${text}`);
  return new URL(match);
}
