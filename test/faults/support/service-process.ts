import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup } from './cleanup.js';
import { waitFor } from './ports.js';

/** The built service (`npm run build`): what production runs, not the test harness. */
export const SERVICE_MAIN = join(import.meta.dirname, '../../../dist/src/main.js');

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * One process of the service (`node dist/src/main.js`) with its own environment, its output in
 * a log file, started in a directory of its own (so no `.env` of the repository applies).
 */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private exit: Promise<ExitStatus> | undefined;
  private starts = 0;

  constructor(
    readonly name: string,
    private readonly dir: string,
    readonly env: Record<string, string>,
  ) {}

  get role(): string {
    return this.env.ROLE!;
  }

  /** The API port (api) or the metrics port (worker): where this process is probed. */
  get probeUrl(): string {
    return this.role === 'worker' ? `http://127.0.0.1:${this.env.METRICS_PORT}/metrics` : `http://127.0.0.1:${this.env.PORT}/api/health`;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get logFile(): string {
    return join(this.dir, `${this.name}.log`);
  }

  /** Spawns the process and resolves once it answers its probe (workers: GET /metrics on METRICS_PORT). */
  async start(): Promise<void> {
    const log = openSync(this.logFile, 'a');
    const { NODE_OPTIONS: _ignored, ...parent } = process.env;
    const child = spawn(process.execPath, [SERVICE_MAIN], { cwd: this.dir, env: { ...parent, ...this.env }, stdio: ['ignore', log, log] });
    closeSync(log);
    this.child = child;
    this.starts += 1;
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    if (this.starts === 1) {
      onCleanup(
        this.name,
        async () => {
          if (this.running) await this.signal('SIGKILL');
        },
        () => {
          if (this.running) this.child?.kill('SIGKILL');
        },
      );
    }
    await waitFor(
      `${this.name} ready (${this.probeUrl})`,
      async () => {
        if (!this.running) throw new Error(`${this.name} exited during start-up:\n${this.logTail()}`);
        const res = await fetch(this.probeUrl, { headers: { Authorization: `Bearer ${this.env.METRICS_TOKEN}` }, signal: AbortSignal.timeout(2000) });
        return res.status === 200;
      },
      60_000,
      200,
    );
  }

  /** Sends `signal` and resolves with how the process ended. */
  async signal(signal: NodeJS.Signals): Promise<ExitStatus> {
    if (!this.child || !this.exit) throw new Error(`${this.name} was never started`);
    if (this.running) this.child.kill(signal);
    return this.exit;
  }

  /** Resolves with how the process ended (once it has). */
  exited(): Promise<ExitStatus> {
    if (!this.exit) throw new Error(`${this.name} was never started`);
    return this.exit;
  }

  logTail(lines = 40): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Every JSON log line of this process (pino), parsed. */
  logLines(): Record<string, unknown>[] {
    try {
      return readFileSync(this.logFile, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {
      return [];
    }
  }
}
