import type { Logger } from '@nestjs/common';
import { type AuthenticationCreds, type GroupMetadata, jidNormalizedUser, type proto, type WAMessageKey } from '@whiskeysockets/baileys';
import type { AppConfig } from '../../../../infra/config/app-config.js';
import { isDependencyUnavailable } from '../../../../infra/http/dependency-errors.js';
import { ScanNotConnectedError } from '../../session/scan-sessions.port.js';
import { withTimeout } from '../../session/waiters.js';
import type { ScanEvent, ScanIdentity, ScanOpenOptions, ScanSocket } from '../scan-driver.port.js';
import { loadAuthState, type StoredAuthState } from './baileys-auth-state.js';
import { closedEvent, LOST_OR_CLOSED, statusCodeOf } from './baileys-close.js';
import { DeferredReceipts, type ReceiptBatch } from './deferred-receipts.js';
import { type BaileysEvents, type ConnectionProgress, dispatch, type DispatchTarget } from './baileys-event.dispatch.js';
import { EventOrder } from './baileys-event-order.js';
import type { BaileysLogger } from './baileys-logger.js';
import { lookupNumbers, sendPresence } from './baileys-number-lookup.js';
import { type Registration, requestPairingCode, watchRegistration } from './baileys-pairing.js';
import { watchPasskeyGate } from './baileys-passkey.js';
import { PasskeyCompanion, platformTypeOf } from './passkey/passkey-companion.js';
import type { BaileysSocket, MakeBaileysSocket } from './baileys-socket.types.js';
import { SOCKET_BROWSER, socketOptions } from './baileys-socket.options.js';
import { GroupMetadataCache } from './group-metadata.cache.js';
import type { OwnJids } from './mappers/baileys-content.types.js';
import { outgoingContent, resendContent } from './mappers/baileys-outgoing.mapper.js';
import type { MediaClients } from './media-tls.js';
import { SignalKeyCache } from './signal-key.cache.js';
import { releaseTransactionStorage } from './transaction-storage.js';

// How long a group message may wait for its group's name before it is handed over without one.
const GROUP_METADATA_TIMEOUT_MS = 5_000;

// The events that carry what an upsert brought (its messages and their changes, a history
// notification's batch): each waits to be stored before the batch's receipts go to WhatsApp.
const ACKNOWLEDGED_BY: ReadonlySet<ScanEvent['type']> = new Set(['messages', 'history', 'edits', 'reactions', 'revokes']);

/** What every connection of one driver shares. */
export interface ConnectionDeps {
  config: AppConfig;
  media: MediaClients;
  makeSocket: MakeBaileysSocket;
  /** Baileys' logger; each socket gets a child naming its workspace. */
  baileysLogger: BaileysLogger;
  log: Logger;
  /** The socket's key-transaction storage cannot be found (`transaction-storage.ts`). */
  onTransactionStorageMissing: () => void;
}

/**
 * One socket, from `open()` to its one `closed`: the auth state it reads and writes, the Baileys
 * socket, its events in order (`EventOrder`, through `dispatch`), and the `ScanSocket` handed out.
 * After `closed` nothing more is emitted, a failed write no longer ends anything, and sends fail
 * as not connected.
 */
export class BaileysConnection implements DispatchTarget {
  readonly progress: ConnectionProgress = { qrShown: false, paired: false };
  readonly groups = new GroupMetadataCache();
  private readonly keyCache = new SignalKeyCache();
  private readonly order: EventOrder;
  private readonly workspaceId: string;
  private auth: StoredAuthState | undefined;
  private socket: BaileysSocket | undefined;
  private authFailure: string | null = null;
  private storeUnavailable = false;
  private closed = false;
  private registration: Registration | null = null;
  private releaseTxStorage: () => void = () => undefined;
  /** The passkey ceremony's companion, with CHAT_PASSKEY_CEREMONY on (docs/passkey.md). */
  private companion: PasskeyCompanion | undefined;
  private readonly receipts = new DeferredReceipts((error) =>
    this.deps.log.debug({ workspaceId: this.workspaceId, err: error }, 'a receipt could not be sent; WhatsApp delivers the message again'),
  );
  /** The receipts of the Baileys batch being dispatched (its events each take a part). */
  private batch: ReceiptBatch | null = null;

  private constructor(
    private readonly deps: ConnectionDeps,
    private readonly options: ScanOpenOptions,
  ) {
    this.workspaceId = options.workspaceId;
    this.order = new EventOrder(options.listener, (error) => this.mappingFailed(error));
  }

  static async open(deps: ConnectionDeps, options: ScanOpenOptions): Promise<ScanSocket> {
    return new BaileysConnection(deps, options).start();
  }

  private async start(): Promise<ScanSocket> {
    const logger = this.deps.baileysLogger.child({ workspaceId: this.workspaceId });
    const auth = await loadAuthState(this.options.auth, (error) => this.failWrite(error));
    this.auth = auth;
    const socket = this.deps.makeSocket(
      socketOptions({
        config: this.deps.config,
        media: this.deps.media,
        logger,
        auth: auth.state,
        keyCache: this.keyCache,
        getMessage: (key) => this.resend(key),
        cachedGroupMetadata: (jid) => this.cachedGroupMetadata(jid),
        deferInboundReceipt: (key, send) => this.receipts.defer(key, send),
        // While WhatsApp's passkey check runs, no QR code expires the socket (a person is busy).
        holdPairingQr: () => this.progress.passkey === true && this.companion !== undefined,
      }),
    );
    this.socket = socket;
    const txStorage = releaseTransactionStorage(socket.authState?.keys);
    if (!txStorage.found && socket.authState) this.deps.onTransactionStorageMissing();
    this.releaseTxStorage = txStorage.dispose;

    socket.ev.process((events: BaileysEvents) => {
      // The receipts of this batch's messages go once every event made from it was stored.
      const batch = this.receipts.take(events['messages.upsert']?.messages ?? []);
      this.batch = batch;
      try {
        dispatch(events, this);
      } catch (error) {
        batch.fail();
        this.mappingFailed(error);
      } finally {
        this.batch = null;
        batch.seal();
      }
    });
    this.watchLinking(socket);
    // A write that failed while the socket was being made could not end it yet.
    if (this.authFailure !== null) void socket.end(new Error(`auth state could not be saved: ${this.authFailure}`));
    return this.scanSocket(socket);
  }

  /** The registration's length (pairing codes expire with it) and WhatsApp's passkey check. */
  private watchLinking(socket: BaileysSocket): void {
    watchRegistration(socket, (registration) => (this.registration = registration));
    if (this.deps.config.chat.passkey.ceremony) {
      this.companion = new PasskeyCompanion(socket, {
        creds: () => this.creds,
        saveCreds: () => this.saveCreds(),
        emit: (event) => this.emit(event),
        deviceType: platformTypeOf(SOCKET_BROWSER),
      });
    }
    watchPasskeyGate(socket, {
      companion: this.companion,
      hasMe: () => Boolean(this.creds.me?.id),
      emit: (event) => {
        this.progress.passkey = true;
        this.emit(event);
      },
      noticed: () => (this.progress.passkey = true),
      log: (line) => this.deps.log.warn({ workspaceId: this.workspaceId, ...line }, 'WhatsApp asks for a passkey check instead of pairing'),
      warn: (error, what) => this.deps.log.warn({ workspaceId: this.workspaceId, err: error }, what),
    });
  }

  private scanSocket(socket: BaileysSocket): ScanSocket {
    return {
      requestPairingCode: (phone) => requestPairingCode(socket, this.progress, this.registration, phone),
      send: async (jid, outgoing) => {
        let sent;
        try {
          const { content, options } = outgoingContent(jid, outgoing);
          sent = await socket.sendMessage(jid, content, options);
        } catch (error) {
          if (this.closed || statusCodeOf(error) === LOST_OR_CLOSED) throw new ScanNotConnectedError();
          throw error;
        }
        const externalId = sent?.key.id;
        if (!externalId) throw new Error('WhatsApp returned no message id');
        // The sender is this linked number, as on the echo of the same message (mapMessage).
        return { externalId, senderJid: this.own().jid };
      },
      markRead: async (keys) => {
        if (keys.length === 0) return;
        await socket.readMessages(
          keys.map((key) => ({ remoteJid: key.chatJid, id: key.externalId, participant: key.participant ?? undefined, fromMe: false })),
        );
      },
      presence: (jid, state) => this.notClosed(sendPresence(socket, jid, state)),
      lookup: (phones) => this.notClosed(lookupNumbers(socket, phones)),
      logout: () => socket.logout(),
      // Sealed at once (not when Baileys reports its end): the session may delete the keys of an
      // unfinished link right after, and nothing of this socket may write them back.
      close: () => {
        this.auth?.seal();
        void socket.end(undefined);
      },
      ...(this.companion ? { passkey: this.companion } : {}),
    };
  }

  /** A socket call that failed because the connection is gone is "not connected", as for sends. */
  private async notClosed<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (this.closed || statusCodeOf(error) === LOST_OR_CLOSED) throw new ScanNotConnectedError();
      throw error;
    }
  }

  get creds(): AuthenticationCreds {
    return this.auth!.state.creds;
  }

  saveCreds(): Promise<void> {
    return this.auth!.saveCreds();
  }

  identity(): ScanIdentity {
    const me = this.socket?.user ?? this.creds.me;
    return { jid: me?.id ?? '', lid: me?.lid ?? null, name: me?.name ?? null };
  }

  own(): OwnJids {
    const me = this.socket?.user ?? this.auth?.state.creds.me;
    return { jid: me?.id ? jidNormalizedUser(me.id) : null, lid: me?.lid ? jidNormalizedUser(me.lid) : null };
  }

  emit(event: ScanEvent): void {
    if (!this.closed) this.order.emit(event, this.receiptPart(event.type));
  }

  emitLater(work: () => Promise<ScanEvent | null>): void {
    if (!this.closed) this.order.later(work, this.receiptPart('messages'));
  }

  private receiptPart(type: ScanEvent['type']): (() => void) | undefined {
    return this.batch && ACKNOWLEDGED_BY.has(type) ? this.batch.part() : undefined;
  }

  /**
   * A group's metadata into the socket's cache (its subject names the conversation). Asked of
   * WhatsApp at most once per group while cached; a group that cannot be read in time keeps no
   * name (the message is never held back for long, nor lost).
   */
  async fetchGroup(jid: string): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    try {
      this.groups.set(await withTimeout(socket.groupMetadata(jid), GROUP_METADATA_TIMEOUT_MS));
    } catch (error) {
      this.deps.log.warn({ err: error, jid }, 'group metadata could not be read: the group stays unnamed for now');
    }
  }

  /**
   * The socket is closed. The next socket (515 after pairing: at once) reads the creds this one
   * is still saving; `closed` waits for every write, so it never starts from stale creds or keys.
   * Writes this socket starts from now on are dropped (seal): none lands after its end was handled.
   */
  socketEnded(error: Error | undefined): void {
    const auth = this.auth!;
    auth.seal();
    void auth.settled().then(() => {
      this.emit(
        closedEvent({
          error,
          authFailure: this.authFailure,
          storeUnavailable: this.storeUnavailable,
          progress: this.progress,
          linked: Boolean(auth.state.creds.me?.id),
        }),
      );
      this.closed = true;
      this.receipts.clear();
      this.keyCache.flushAll();
      // Every write of this socket has settled: its transaction storage is never used again.
      this.releaseTxStorage();
    });
  }

  /** A write of the auth state failed: the socket is ended (once), `closed` says why. */
  private failWrite(error: unknown): void {
    this.deps.log.error({ workspaceId: this.workspaceId, err: error }, 'scan auth state could not be saved; the session is ended');
    if (this.authFailure !== null || this.closed) return;
    this.authFailure = error instanceof Error ? error.message : String(error);
    this.storeUnavailable = isDependencyUnavailable(error);
    void this.socket?.end(new Error(`auth state could not be saved: ${this.authFailure}`));
  }

  private mappingFailed(error: unknown): void {
    this.deps.log.error({ workspaceId: this.workspaceId, err: error }, 'could not map a scan channel event');
  }

  private async resend(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.remoteJid || !key.id) return undefined;
    try {
      return resendContent(await this.options.getMessage(key.remoteJid, key.id));
    } catch (error) {
      this.deps.log.warn({ workspaceId: this.workspaceId, err: error }, 'could not look up a message for a resend request');
      return undefined;
    }
  }

  private async cachedGroupMetadata(jid: string): Promise<GroupMetadata | undefined> {
    const cached = this.groups.get(jid);
    if (cached || !this.socket) return cached;
    try {
      const metadata = await this.socket.groupMetadata(jid);
      this.groups.set(metadata);
      return metadata;
    } catch {
      return undefined; // Baileys then asks for it itself, and reports its own error.
    }
  }
}
