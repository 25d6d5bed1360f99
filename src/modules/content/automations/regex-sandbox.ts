import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { PATTERN_FLAGS } from './automation-rules.js';

/**
 * The worker thread's whole program: test a pattern against a text and answer. Inline (`eval`), so
 * the same code runs from the build and under the test runner, which has no compiled file to load.
 * Compiled patterns are cached by source (a workspace's automations repeat them).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const compiled = new Map();
parentPort.on('message', ({ id, pattern, text }) => {
  try {
    let regex = compiled.get(pattern);
    if (!regex) {
      if (compiled.size >= 500) compiled.clear();
      regex = new RegExp(pattern, ${JSON.stringify(PATTERN_FLAGS)});
      compiled.set(pattern, regex);
    }
    parentPort.postMessage({ id, matched: regex.test(text) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});`;

export type SandboxResult = boolean | 'timeout';

interface Reply {
  id: number;
  matched?: boolean;
  error?: string;
}

/**
 * Runs the `matches` conditions of automations with a time limit. JavaScript's regular
 * expressions backtrack: a pattern such as `(a+)+$` takes exponential time on some texts, and a
 * match cannot be interrupted on the thread that runs it. So patterns run on a worker thread, one
 * at a time; one that outlasts `AUTOMATION_REGEX_TIMEOUT_MS` has its thread terminated (V8 stops
 * it mid-match), counts as not matching, and the next test starts a fresh thread.
 */
@Injectable()
export class RegexSandbox implements OnModuleDestroy {
  private readonly logger = new Logger('RegexSandbox');
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(private readonly config: AppConfig) {}

  /** Whether `pattern` (validated when its automation was saved) matches `text`, or `timeout`. */
  test(pattern: string, text: string): Promise<SandboxResult> {
    const run = this.queue.then(() => this.run(pattern, text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  private async run(pattern: string, text: string): Promise<SandboxResult> {
    const worker = await this.start();
    const id = ++this.nextId;
    const timeoutMs = this.config.automationRegexTimeoutMs;
    return new Promise<SandboxResult>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      const onMessage = (reply: Reply): void => {
        if (reply.id !== id) return;
        settle();
        if (reply.error !== undefined) reject(new Error(`pattern failed: ${reply.error}`));
        else resolve(reply.matched === true);
      };
      const onExit = (): void => {
        settle();
        this.forget(worker);
        reject(new Error('the pattern worker exited'));
      };
      const timer = setTimeout(() => {
        settle();
        this.logger.warn({ pattern: pattern.slice(0, 100), textLength: text.length, timeoutMs }, 'pattern timed out; its worker thread is restarted');
        void this.stop();
        resolve('timeout');
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.postMessage({ id, pattern, text });
    });
  }

  /** The running thread, started (and awaited online, so start-up never counts against the limit) on first use. */
  private start(): Promise<Worker> {
    this.ready ??= (async () => {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      // Never what keeps the process alive.
      worker.unref();
      worker.on('error', (error) => this.logger.error({ err: error }, 'pattern worker failed'));
      this.worker = worker;
      try {
        await once(worker, 'online');
      } catch (error) {
        this.forget(worker);
        throw error;
      }
      return worker;
    })();
    return this.ready;
  }

  private forget(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.forget(worker);
    await worker.terminate();
  }
}
