import type { Logger } from 'pino';
import { maskBufferDumps, stripKeyMaterial } from './key-material.js';

/**
 * Why the console is wrapped: libsignal (under Baileys) reports session changes with
 * `console.info("Closing session:", session)`, `"Opening session:"`, `"Removing old closed
 * session:"`, `console.warn("Session already closed", session)`, handing the whole session record
 * to stdout: root key, chain keys, the ephemeral private key, as `<Buffer …>` dumps. That happens
 * in normal traffic (a contact reinstalls WhatsApp or starts a new session) and bypasses the
 * logger and its redaction. Patching node_modules is not an option, so each process installs
 * this guard once:
 *
 * - a console call made by the Signal/WhatsApp stack (libsignal, Baileys, whatsapp-rust-bridge;
 *   found from the caller's stack frame, read only when console is called, which is rare) goes to
 *   the service's logger at `debug`, its arguments stripped of key material (`stripKeyMaterial`);
 * - every other console call keeps its level and output, its arguments passing through the same
 *   stripping (defense in depth: a key record printed by anyone is still masked).
 *
 * It never throws: should anything in it fail, a Signal-stack line is dropped and any other line
 * is printed as it came.
 */
const METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const;
type Method = (typeof METHODS)[number];

// The frame of the caller: a file of one of these packages (npm layout, any platform).
const SIGNAL_STACK = /[\\/]node_modules[\\/](libsignal|@whiskeysockets[\\/]baileys|whatsapp-rust-bridge)[\\/]/;

// Kept on the console object itself, so two copies of this module (src and dist in one process,
// a test file's fresh module registry) still wrap it once and share one target.
const GUARD = Symbol.for('whatsapp-inbox.console-guard');

interface GuardState {
  logger: Logger | undefined;
  /** Set while the guard logs, so a console call made by the logger itself is not routed again. */
  busy: boolean;
}

type GuardedConsole = Console & { [GUARD]?: GuardState };

/**
 * Installs the guard on `console` (once) and makes `logger` the target of the Signal stack's
 * console lines (the latest call wins: the process's root logger, or a test app's).
 */
export function installConsoleGuard(logger: Logger, target: Console = console): void {
  const guarded = target as GuardedConsole;
  const existing = guarded[GUARD];
  if (existing) {
    existing.logger = logger;
    return;
  }
  const state: GuardState = { logger, busy: false };
  Object.defineProperty(guarded, GUARD, { value: state, enumerable: false });
  for (const method of METHODS) {
    const original = guarded[method];
    if (typeof original !== 'function') continue;
    const wrapped = function guardedConsole(...args: unknown[]): void {
      if (state.busy) {
        original.apply(target, args);
        return;
      }
      let source: string | undefined;
      try {
        source = signalPackageOf(wrapped);
        if (source !== undefined) {
          toLogger(state, source, method, args);
          return;
        }
        original.apply(target, args.map(stripKeyMaterial));
      } catch {
        if (source === undefined) original.apply(target, args);
      }
    };
    guarded[method] = wrapped;
  }
}

/** The Signal/WhatsApp package the function that called `wrapper` lives in, if it is one of them. */
function signalPackageOf(wrapper: (...args: unknown[]) => void): string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 1;
    Error.captureStackTrace(holder, wrapper);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const frame = holder.stack?.split('\n')[1] ?? '';
  return SIGNAL_STACK.exec(frame)?.[1]?.replace('\\', '/');
}

function toLogger(state: GuardState, source: string, method: Method, args: unknown[]): void {
  const logger = state.logger;
  if (!logger?.isLevelEnabled('debug')) return;
  const [first, ...rest] = args;
  const message = typeof first === 'string' ? maskBufferDumps(first) : 'console output';
  const detail = (typeof first === 'string' ? rest : args).map((arg) => plain(stripKeyMaterial(arg)));
  state.busy = true;
  try {
    logger.debug({ source, console: method, ...(detail.length ? { detail } : {}) }, message);
  } finally {
    state.busy = false;
  }
}

// pino prints nested errors as `{}`; their message and stack are what a reader needs.
function plain(value: unknown): unknown {
  return value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : value;
}
