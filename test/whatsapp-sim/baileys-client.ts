// A real Baileys client for the simulator's own tests: an in-memory auth state that survives
// socket restarts (as the service's Postgres store does), the app-side reconnect on 515, and
// promises over the events the tests wait for.
import {
  DisconnectReason,
  initAuthCreds,
  makeWASocket,
  type AuthenticationCreds,
  type ConnectionState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type WAMessage,
  type WAMessageUpdate,
  type WASocket,
} from '@whiskeysockets/baileys';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { pino } from 'pino';
import { Agent } from 'undici';
import { SIM_CA_FILE } from './media-host.js';

const ca = [...rootCertificates, readFileSync(SIM_CA_FILE, 'utf8')];
/**
 * What a client needs to reach the simulator's media host: its test CA trusted next to the
 * system's, for uploads (node:https agent) and downloads (fetch dispatcher). TLS checks stay on.
 */
export const simMediaTrust = { fetchAgent: new HttpsAgent({ ca }), options: { dispatcher: new Agent({ connect: { ca } }) } as RequestInit };

export class MemoryAuth {
  creds: AuthenticationCreds = initAuthCreds();
  private readonly data = new Map<string, unknown>();
  readonly keys: SignalKeyStore = {
    get: <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const value = this.data.get(`${type}/${id}`);
        if (value !== undefined) out[id] = value as SignalDataTypeMap[T];
      }
      return out;
    },
    set: (set: SignalDataSet) => {
      for (const [type, values] of Object.entries(set)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          if (value === null || value === undefined) this.data.delete(`${type}/${id}`);
          else this.data.set(`${type}/${id}`, value);
        }
      }
    },
  };
}

export interface CloseInfo {
  statusCode: number | undefined;
}

interface ClientEvents {
  qr: [string];
  open: [];
  close: [CloseInfo];
  upsert: [WAMessage, string];
  update: [WAMessageUpdate];
  status: [string, number];
  history: [HistoryBatch];
}

export interface HistoryBatch {
  messages: WAMessage[];
  chats: { id?: string | null }[];
  syncType: number | null | undefined;
  progress: number | null | undefined;
}

/** Drives one Baileys socket at a time; `start()` again after a close is the app's reconnect. */
export class BaileysClient {
  readonly auth: MemoryAuth;
  readonly events = new EventEmitter<ClientEvents>();
  readonly upserts: { message: WAMessage; type: string }[] = [];
  readonly closes: CloseInfo[] = [];
  readonly qrs: string[] = [];
  readonly histories: HistoryBatch[] = [];
  /** Highest status seen per message id, from updates or from an upsert they were folded into. */
  readonly statuses = new Map<string, number>();
  sock?: WASocket;
  /** Reconnect by itself after a 515, as every Baileys app must. */
  restartOn515 = true;

  constructor(
    private readonly url: string,
    private readonly options: {
      qrTimeout?: number;
      auth?: MemoryAuth;
      keepAliveIntervalMs?: number;
      /** The project's Baileys patch (scripts/patch-baileys.mjs): the QR timer waits while it says true. */
      holdPairingQr?: () => boolean;
    } = {},
  ) {
    // Sharing an auth state between clients is how a test models a restart (or a second worker).
    this.auth = options.auth ?? new MemoryAuth();
  }

  start(): WASocket {
    const sock = makeWASocket({
      waWebSocketUrl: this.url,
      auth: { creds: this.auth.creds, keys: this.auth.keys },
      logger: pino({ level: process.env.SIM_LOG ?? 'silent' }),
      connectTimeoutMs: 10_000,
      keepAliveIntervalMs: this.options.keepAliveIntervalMs ?? 30_000,
      // Queries still open when a test ends its socket would otherwise hold the run for 60 s.
      defaultQueryTimeoutMs: 5_000,
      ...simMediaTrust,
      ...(this.options.qrTimeout ? { qrTimeout: this.options.qrTimeout } : {}),
      ...(this.options.holdPairingQr ? { holdPairingQr: this.options.holdPairingQr } : {}),
    } as Parameters<typeof makeWASocket>[0]);
    this.sock = sock;
    if (process.env.SIM_DEBUG) sock.ev.process((events) => console.log('client events', Object.keys(events).join(',')));
    sock.ev.on('creds.update', (update) => Object.assign(this.auth.creds, update));
    sock.ev.on('connection.update', (update: Partial<ConnectionState>) => {
      if (update.qr) {
        this.qrs.push(update.qr);
        this.events.emit('qr', update.qr);
      }
      if (update.connection === 'open') this.events.emit('open');
      if (update.connection === 'close') {
        const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
        const info = { statusCode: error?.output?.statusCode };
        this.closes.push(info);
        this.events.emit('close', info);
        if (info.statusCode === DisconnectReason.restartRequired && this.restartOn515 && this.sock === sock) this.start();
      }
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      for (const message of messages) {
        this.upserts.push({ message, type });
        this.events.emit('upsert', message, type);
        if (message.key.id && typeof message.status === 'number') this.noteStatus(message.key.id, message.status);
      }
    });
    sock.ev.on('messaging-history.set', ({ messages, chats, syncType, progress }) => {
      const batch = { messages, chats, syncType, progress };
      this.histories.push(batch);
      this.events.emit('history', batch);
    });
    sock.ev.on('messages.update', (updates) => {
      for (const update of updates) {
        this.events.emit('update', update);
        if (update.key.id && typeof update.update.status === 'number') this.noteStatus(update.key.id, update.update.status);
      }
    });
    return sock;
  }

  /**
   * Resolves once message `id` reached `status` (3 delivered, 4 read). Baileys may fold a status
   * change into a still-buffered upsert instead of a messages.update, so both are watched.
   */
  async status(id: string, status: number): Promise<void> {
    if ((this.statuses.get(id) ?? 0) >= status) return;
    await this.next('status', (statusId, value) => statusId === id && value >= status);
  }

  private noteStatus(id: string, status: number): void {
    if (status <= (this.statuses.get(id) ?? 0)) return;
    this.statuses.set(id, status);
    this.events.emit('status', id, status);
  }

  stop(): void {
    const sock = this.sock;
    this.sock = undefined;
    void sock?.end(undefined);
  }

  next<K extends keyof ClientEvents>(event: K, match: (...args: ClientEvents[K]) => boolean = () => true): Promise<ClientEvents[K]> {
    return new Promise((resolve) => {
      const listener = (...args: ClientEvents[K]): void => {
        if (!match(...args)) return;
        this.events.off(event, listener as never);
        resolve(args);
      };
      this.events.on(event, listener as never);
    });
  }

  /** Resolves with the first upserted message (past or future) that matches. */
  async message(match: (m: WAMessage) => boolean): Promise<WAMessage> {
    const found = this.upserts.find((u) => match(u.message));
    if (found) return found.message;
    const [message] = await this.next('upsert', (m) => match(m));
    return message;
  }
}

export const textOf = (m: WAMessage): string | undefined => m.message?.conversation ?? m.message?.extendedTextMessage?.text ?? undefined;
