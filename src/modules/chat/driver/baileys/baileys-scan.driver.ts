import { Logger } from '@nestjs/common';
import makeWASocket, {
  type AnyMessageContent,
  type BaileysEventMap,
  Browsers,
  BufferJSON,
  DEFAULT_CONNECTION_CONFIG,
  downloadContentFromMessage,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  proto,
  toBuffer,
} from '@whiskeysockets/baileys';
import type { DestinationStream } from 'pino';
import { AppConfig } from '../../../../infra/config/app-config.js';
import { createRootLogger, SIGNAL_STACK_REDACT } from '../../../../infra/logging/logging.module.js';
import { isDependencyUnavailable } from '../../../../infra/http/dependency-errors.js';
import { watchRefusals } from '../../../../infra/net/guarded-dispatcher.js';
import { ScanNotConnectedError } from '../../session/scan-sessions.port.js';
import type { ScanDriver, ScanEvent, ScanIdentity, ScanMediaRef, ScanOpenOptions, ScanOutgoing, ScanSocket } from '../scan-driver.port.js';
import { loadAuthState } from './baileys-auth-state.js';
import { BaileysLogger } from './baileys-logger.js';
import type { BaileysSocket, MakeBaileysSocket } from './baileys-socket.types.js';
import { type BaileysMediaRef, mapEdits, mapHistory, mapLidMapping, mapMessages, mapReceipts, type OwnJids } from './baileys-message.mapper.js';
import { GroupMetadataCache } from './group-metadata.cache.js';
import { mediaClients, type MediaClients } from './media-tls.js';
import { SignalKeyCache } from './signal-key.cache.js';
import { releaseTransactionStorage } from './transaction-storage.js';

type Events = Partial<BaileysEventMap>;

const QR_EXHAUSTED = 'QR refs attempts ended';
const LOST_OR_CLOSED = 428;
// How Baileys words an error of the WebSocket itself (DNS, refused, TLS): WhatsApp never answered.
const SOCKET_ERROR = 'WebSocket Error (';
// How long a group message may wait for its group's name before it is handed over without one.
const GROUP_METADATA_TIMEOUT_MS = 5_000;
// How long Baileys shows each QR code before the next (socket.js: `qrTimeout || 60000` for the
// first code of a socket, then `qrTimeout || 20000`); the driver sets no `qrTimeout`.
const FIRST_QR_MS = 60_000;
const NEXT_QR_MS = 20_000;
// The stream error WhatsApp sends when the phone removes the device in Linked devices. Baileys
// maps a `conflict` without a code attribute to 440 (replaced); with WhatsApp's `code="401"` to 401.
const DEVICE_REMOVED = 'device_removed';

const statusCodeOf = (error: unknown): number | undefined =>
  (error as { output?: { statusCode?: unknown } } | undefined)?.output?.statusCode as number | undefined;

/** Baileys ends on a stream error with `data`: its first child (`<conflict type="device_removed"/>`). */
function deviceRemoved(error: unknown): boolean {
  const data = (error as { data?: { tag?: unknown; attrs?: { type?: unknown } } } | undefined)?.data;
  return data?.tag === 'conflict' && data.attrs?.type === DEVICE_REMOVED;
}

/** Who the socket is logged in (or just paired) as. */
function identityOf(ctx: Pick<DispatchContext, 'socket' | 'state'>): ScanIdentity {
  const me = ctx.socket.user ?? ctx.state.creds.me;
  return { jid: me?.id ?? '', lid: me?.lid ?? null, name: me?.name ?? null };
}

function content(outgoing: ScanOutgoing): AnyMessageContent {
  switch (outgoing.type) {
    case 'text':
      // No link preview: Baileys would fetch a URL in the text itself (link-preview-js, and the
      // preview's image), past the address policy every fetch of a user's URL goes through.
      return { text: outgoing.body, linkPreview: null };
    case 'image':
      return { image: outgoing.data, mimetype: outgoing.mimeType, caption: outgoing.caption || undefined };
    case 'document':
      return { document: outgoing.data, mimetype: outgoing.mimeType, fileName: outgoing.fileName, caption: outgoing.caption || undefined };
  }
}

/**
 * The scan channel over Baileys 7 (WhatsApp Web multi-device): the only code that imports it.
 * One `open()` is one socket; every event it emits is mapped to our `ScanEvent`s, in order,
 * ending with exactly one `closed`. Auth state lives in `ScanAuthStorage` (Postgres); a write
 * that fails ends the socket with `authFailure`, because a session whose keys were half-saved
 * breaks later ("Bad MAC") in ways no reconnect repairs. ChatModule reaches it through
 * `LazyBaileysScanDriver`, which loads this file (and Baileys) on first use.
 */
export class BaileysScanDriver implements ScanDriver {
  private readonly log = new Logger('ScanDriver');
  private readonly baileysLogger: BaileysLogger;
  private readonly makeSocket: MakeBaileysSocket;
  private warnedTxStorage = false;
  /** Every download through the address policy; with WA_MEDIA_CA_FILE that CA is trusted too. */
  private readonly media: MediaClients;

  constructor(
    private readonly config: AppConfig,
    makeSocket?: MakeBaileysSocket,
    /** Where Baileys' lines go (tests read them); stdout like every log line by default. */
    logDestination?: DestinationStream,
  ) {
    this.makeSocket = makeSocket ?? ((socketConfig) => makeWASocket(socketConfig));
    // Baileys logs a lot, including per-message decrypt failures: its own level (WA_LOG_LEVEL),
    // silenced with the rest of the service when LOG_LEVEL is silent. Its normal lifecycle lines
    // that it logs as warnings or errors (the 515 after pairing) get their real level (BaileysLogger).
    const level = config.logLevel === 'silent' ? 'silent' : config.waLogLevel;
    // Key material by name one level down too (SIGNAL_STACK_REDACT): only Baileys' lines pay for that.
    this.baileysLogger = new BaileysLogger(createRootLogger(config, logDestination).child({ module: 'baileys' }, { level, redact: SIGNAL_STACK_REDACT }));
    if (config.waMediaCa) {
      this.log.warn(`WA_MEDIA_CA_FILE is set: media hosts are also trusted when their certificate comes from ${config.waMediaCa.file} (meant for tests with the WhatsApp simulator)`);
    }
    this.media = mediaClients({ allowPrivate: config.allowPrivateMediaUrls, pem: config.waMediaCa?.pem });
  }

  async open(options: ScanOpenOptions): Promise<ScanSocket> {
    const { workspaceId, listener } = options;
    const logger = this.baileysLogger.child({ workspaceId });
    let sock: BaileysSocket | undefined;
    let authFailure: string | null = null;
    let storeUnavailable = false;
    let closed = false;

    const failWrite = (error: unknown): void => {
      this.log.error({ workspaceId, err: error }, 'scan auth state could not be saved; the session is ended');
      if (authFailure !== null || closed) return;
      authFailure = error instanceof Error ? error.message : String(error);
      storeUnavailable = isDependencyUnavailable(error);
      void sock?.end(new Error(`auth state could not be saved: ${authFailure}`));
    };
    const { state, saveCreds, settled, seal } = await loadAuthState(options.auth, failWrite);
    const groups = new GroupMetadataCache();
    const keyCache = new SignalKeyCache();
    // Events reach the listener in the order Baileys raised them. A group message whose name is
    // not cached waits for the group's metadata (emitLater); whatever comes after it queues
    // behind it, and everything else is handed over at once.
    let queued = 0;
    let order: Promise<void> = Promise.resolve();
    const deliver = (event: ScanEvent | null): void => {
      if (event) listener(event);
    };
    const enqueue = (work: () => Promise<ScanEvent | null> | ScanEvent | null): void => {
      queued += 1;
      order = order
        .then(async () => deliver(await work()))
        .catch((error: unknown) => this.log.error({ workspaceId, err: error }, 'could not map a scan channel event'))
        .finally(() => {
          queued -= 1;
        });
    };
    const emit = (event: ScanEvent): void => {
      if (closed) return;
      if (queued === 0) listener(event);
      else enqueue(() => event);
    };
    const emitLater = (work: () => Promise<ScanEvent | null>): void => {
      if (!closed) enqueue(work);
    };
    const own = (): OwnJids => {
      const me = sock?.user ?? state.creds.me;
      return { jid: me?.id ? jidNormalizedUser(me.id) : null, lid: me?.lid ? jidNormalizedUser(me.lid) : null };
    };

    sock = this.makeSocket({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, logger, keyCache) },
      waWebSocketUrl: this.config.waWebSocketUrl,
      // History-sync and app-state blobs through the address policy (the URL comes from a message);
      // the upload agent only with WA_MEDIA_CA_FILE (tests: the simulator's media host).
      options: { dispatcher: this.media.dispatcher } as RequestInit,
      ...(this.media.agent ? { fetchAgent: this.media.agent } : {}),
      // Never fetched: a start-up that depends on GitHub or web.whatsapp.com being reachable
      // would fail in odd ways; WA_VERSION overrides the bundled one when WhatsApp refuses it.
      version: this.config.waVersion ?? DEFAULT_CONNECTION_CONFIG.version,
      logger,
      // A real OS name: WhatsApp refuses companion names it does not know (pairing codes).
      browser: Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      // A silent connection (dead network path) is noticed this long + 5 s after its last answer.
      keepAliveIntervalMs: this.config.waKeepAliveMs,
      syncFullHistory: false,
      // The initial bootstrap (and recent/push-name chunks, which carry LID mappings), never FULL.
      shouldSyncHistoryMessage: (notification) => notification.syncType !== proto.HistorySync.HistorySyncType.FULL,
      // A failed key write already ends the session; retrying it for 30 s only delays that.
      transactionOpts: { maxCommitRetries: 1, delayBetweenTriesMs: 0 },
      getMessage: async (key) => {
        if (!key.remoteJid || !key.id) return undefined;
        try {
          const stored = await options.getMessage(key.remoteJid, key.id);
          // Only text can be rebuilt from the store; a media message is not re-sent.
          return stored?.type === 'text' ? { conversation: stored.content } : undefined;
        } catch (error) {
          this.log.warn({ workspaceId, err: error }, 'could not look up a message for a resend request');
          return undefined;
        }
      },
      cachedGroupMetadata: async (jid) => {
        const cached = groups.get(jid);
        if (cached || !sock) return cached;
        try {
          const metadata = await sock.groupMetadata(jid);
          groups.set(metadata);
          return metadata;
        } catch {
          return undefined; // Baileys then asks for it itself, and reports its own error.
        }
      },
    });
    const socket = sock;
    const txStorage = releaseTransactionStorage(socket.authState?.keys);
    if (!txStorage.found && socket.authState && !this.warnedTxStorage) {
      this.warnedTxStorage = true;
      this.log.warn('cannot find the key-transaction storage of Baileys sockets: each socket will slow this process down (see transaction-storage.ts)');
    }
    const progress = { qrShown: false, paired: false };
    const onClosed = (): void => {
      closed = true;
      keyCache.flushAll();
      // Every write of this socket has settled: its transaction storage is never used again.
      txStorage.dispose();
    };

    socket.ev.process((events: Events) => {
      try {
        this.dispatch(events, { state, saveCreds, settled, seal, groups, emit, emitLater, own, socket, progress, authFailure: () => authFailure, storeUnavailable: () => storeUnavailable, onClosed });
      } catch (error) {
        this.log.error({ workspaceId, err: error }, 'could not map a scan channel event');
      }
    });
    if (authFailure !== null) void socket.end(new Error(`auth state could not be saved: ${authFailure}`));

    return {
      send: async (jid, outgoing) => {
        let sent;
        try {
          sent = await socket.sendMessage(jid, content(outgoing));
        } catch (error) {
          if (closed || statusCodeOf(error) === LOST_OR_CLOSED) throw new ScanNotConnectedError();
          throw error;
        }
        const externalId = sent?.key.id;
        if (!externalId) throw new Error('WhatsApp returned no message id');
        // The sender is this linked number, as on the echo of the same message (mapMessage).
        return { externalId, senderJid: own().jid };
      },
      markRead: async (keys) => {
        if (keys.length === 0) return;
        await socket.readMessages(keys.map((key) => ({ remoteJid: key.chatJid, id: key.externalId, participant: key.participant ?? undefined, fromMe: false })));
      },
      logout: () => socket.logout(),
      close: () => void socket.end(undefined),
    };
  }

  private dispatch(events: Events, ctx: DispatchContext): void {
    if (events['creds.update']) {
      Object.assign(ctx.state.creds, events['creds.update']);
      void ctx.saveCreds().catch(() => undefined); // reported (and the socket ended) by failWrite
    }
    const update = events['connection.update'];
    // Pair-success: Baileys saves the new `me` (creds.update) and says `isNewLogin`; the 515 follows.
    const paired = Boolean(update?.isNewLogin) || (ctx.progress.qrShown && Boolean(events['creds.update']?.me?.id));
    if (paired && !ctx.progress.paired) {
      ctx.progress.paired = true;
      ctx.emit({ type: 'paired', identity: identityOf(ctx) });
    }
    // Baileys leaves its QR rotation timer running after pair-success: a code it shows then is
    // for nobody (the number is linked), so it is not reported.
    if (update?.qr && !ctx.progress.paired) {
      const lifetime = ctx.progress.qrShown ? NEXT_QR_MS : FIRST_QR_MS;
      ctx.progress.qrShown = true;
      ctx.emit({ type: 'qr', code: update.qr, expiresAt: new Date(Date.now() + lifetime) });
    }
    if (update?.connection === 'open') ctx.emit({ type: 'open', identity: identityOf(ctx) });
    if (events['lid-mapping.update']) {
      const mapping = mapLidMapping(events['lid-mapping.update']);
      if (mapping) ctx.emit({ type: 'lid-mappings', mappings: [mapping] });
    }
    if (events['messaging-history.set']) ctx.emit({ type: 'history', batch: mapHistory(events['messaging-history.set'], ctx.own()) });
    for (const metadata of events['groups.upsert'] ?? []) ctx.groups.set(metadata);
    for (const change of events['groups.update'] ?? []) ctx.groups.merge(change);
    const renamed = [...(events['groups.upsert'] ?? []), ...(events['groups.update'] ?? [])]
      .filter((group) => group.id && group.subject)
      .map((group) => ({ chatJid: group.id!, name: group.subject! }));
    if (renamed.length > 0) ctx.emit({ type: 'group-names', names: renamed });
    const upsert = events['messages.upsert'];
    if (upsert) {
      const messages = mapMessages(upsert.messages, ctx.own());
      const unnamed = [...new Set(messages.filter((m) => m.isGroup && !ctx.groups.get(m.chatJid)).map((m) => m.chatJid))];
      const named = (): ScanEvent => ({ type: 'messages', kind: upsert.type, messages: messages.map((m) => (m.isGroup ? { ...m, chatName: ctx.groups.get(m.chatJid)?.subject || null } : m)) });
      if (messages.length === 0) {
        // nothing to hand over
      } else if (unnamed.length === 0) {
        ctx.emit(named());
      } else {
        ctx.emitLater(async () => {
          await Promise.all(unnamed.map((jid) => this.fetchGroup(ctx, jid)));
          return named();
        });
      }
      const edits = mapEdits(upsert.messages);
      if (edits.length > 0) ctx.emit({ type: 'edits', edits });
    }
    const receipts = mapReceipts(events);
    if (receipts.length > 0) ctx.emit({ type: 'receipts', receipts });
    if (events['group-participants.update']) ctx.groups.delete(events['group-participants.update'].id);

    if (update?.connection === 'close') {
      const error = update.lastDisconnect?.error;
      // The next socket (515 after pairing: at once) reads the creds this one is still saving;
      // `closed` waits for every write, so it never starts from stale creds or keys. Writes this
      // socket starts from now on are dropped (seal): none lands after its end was handled.
      ctx.seal();
      void ctx.settled().then(() => {
        const failure = ctx.authFailure();
        const removed = failure === null && deviceRemoved(error);
        const code = failure !== null ? 500 : removed ? 401 : (statusCodeOf(error) ?? LOST_OR_CLOSED);
        const reason = failure !== null ? `auth state could not be saved: ${failure}` : (error?.message ?? 'connection closed');
        const unlinked = !ctx.state.creds.me?.id;
        // Expired only once a code was shown: a 408 (or a socket error) before the first QR is a
        // socket that never reached WhatsApp (DNS, refused, TLS, handshake timed out). Stream
        // errors and hang-ups (428) came from a reachable channel and keep their backoff.
        const qrExpired = failure === null && !ctx.progress.paired && code === 408 && (reason.includes(QR_EXHAUSTED) || (unlinked && ctx.progress.qrShown));
        const unreached = failure === null && unlinked && !ctx.progress.qrShown && (code === 408 || reason.startsWith(SOCKET_ERROR));
        ctx.emit({
          type: 'closed',
          code,
          reason,
          qrExpired,
          authFailure: failure !== null,
          ...(failure !== null && ctx.storeUnavailable() ? { storeUnavailable: true as const } : {}),
          ...(unreached ? { unreached: true as const } : {}),
          ...(removed ? { removed: true as const } : {}),
        });
        ctx.onClosed();
      });
    }
  }

  /**
   * A group's metadata into the socket's cache (its subject names the conversation). Asked of
   * WhatsApp at most once per group while cached; a group that cannot be read in time keeps no
   * name (the message is never held back for long, nor lost).
   */
  private async fetchGroup(ctx: DispatchContext, jid: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const metadata = await Promise.race([
        ctx.socket.groupMetadata(jid),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer in time')), GROUP_METADATA_TIMEOUT_MS);
        }),
      ]);
      ctx.groups.set(metadata);
    } catch (error) {
      this.log.warn({ err: error, jid }, 'group metadata could not be read: the group stays unnamed for now');
    } finally {
      clearTimeout(timer);
    }
  }

  async downloadMedia(ref: ScanMediaRef): Promise<Buffer> {
    const parsed = JSON.parse(ref, BufferJSON.reviver) as Partial<BaileysMediaRef>;
    if ((parsed.kind !== 'image' && parsed.kind !== 'document') || !parsed.mediaKey || !(parsed.directPath || parsed.url)) {
      throw new Error('unrecognised media reference');
    }
    // The host comes from the message (its sender chose `url`): only what the address policy allows.
    const watch = watchRefusals(this.media.dispatcher);
    try {
      const stream = await downloadContentFromMessage(
        { mediaKey: parsed.mediaKey as Uint8Array, directPath: parsed.directPath, url: parsed.url },
        parsed.kind,
        { options: { dispatcher: watch.dispatcher } as RequestInit },
      );
      return await toBuffer(stream);
    } catch (error) {
      // fetch reports a refused host as `TypeError: fetch failed`; the refusal says why.
      throw watch.refusal() ?? error;
    }
  }
}

interface DispatchContext {
  state: Awaited<ReturnType<typeof loadAuthState>>['state'];
  saveCreds: () => Promise<void>;
  settled: () => Promise<void>;
  seal: () => void;
  groups: GroupMetadataCache;
  emit: (event: ScanEvent) => void;
  /** Emits what `work` answers, in order with every other event (later ones wait for it). */
  emitLater: (work: () => Promise<ScanEvent | null>) => void;
  own: () => OwnJids;
  socket: BaileysSocket;
  /** What this socket got as far as: a QR code shown, the phone's scan (pair-success). */
  progress: { qrShown: boolean; paired: boolean };
  authFailure: () => string | null;
  /** The failed write failed because the key store was unreachable (nothing was written). */
  storeUnavailable: () => boolean;
  onClosed: () => void;
}
