import type { Level, Logger } from 'pino';

type Args = [obj: unknown, msg?: string];

// Baileys' words for them (lib/Socket/socket.js and chats.js of the pinned 7.0.0-rc14).
const STREAM_ERRORED = 'stream errored out';
const NO_PUSH_NAME = 'no name present, ignoring presence update request...';
const RESTART_REQUIRED = '515';

/**
 * The level a Baileys line gets here when it is a normal step of a socket's life that Baileys logs
 * as a warning or an error; null: its own level.
 * - `stream errored out` with code 515: WhatsApp ends the stream right after every pairing
 *   ("restart required") and the client reconnects at once; the session logs the reconnect.
 * - `no name present`: a freshly linked account has no push name yet, so Baileys skips the
 *   presence update it would send (the driver never announces presence anyway).
 */
export function lifecycleLevel(level: 'warn' | 'error', [obj, msg]: Args): Level | null {
  const text = typeof obj === 'string' ? obj : msg;
  if (level === 'error' && text === STREAM_ERRORED && streamErrorCode(obj) === RESTART_REQUIRED) return 'info';
  if (level === 'warn' && text === NO_PUSH_NAME) return 'debug';
  return null;
}

function streamErrorCode(obj: unknown): string | undefined {
  const code = (obj as { fullErrorNode?: { attrs?: { code?: unknown } } } | null)?.fullErrorNode?.attrs?.code;
  return code === undefined ? undefined : String(code);
}

/**
 * The logger Baileys is given (its `ILogger`: level, child and five methods): a pino logger whose
 * warnings and errors pass `lifecycleLevel` first, so that linking a number or an expiring QR does
 * not read as a failure at the default WA_LOG_LEVEL=warn.
 */
export class BaileysLogger {
  constructor(private readonly pino: Logger) {}

  get level(): string {
    return this.pino.level;
  }

  set level(level: string) {
    this.pino.level = level;
  }

  child(bindings: Record<string, unknown>): BaileysLogger {
    return new BaileysLogger(this.pino.child(bindings));
  }

  trace(...args: Args): void {
    this.write('trace', args);
  }

  debug(...args: Args): void {
    this.write('debug', args);
  }

  info(...args: Args): void {
    this.write('info', args);
  }

  warn(...args: Args): void {
    this.write(lifecycleLevel('warn', args) ?? 'warn', args);
  }

  error(...args: Args): void {
    this.write(lifecycleLevel('error', args) ?? 'error', args);
  }

  private write(level: Level, args: Args): void {
    (this.pino[level] as (...line: unknown[]) => void).apply(this.pino, args);
  }
}
