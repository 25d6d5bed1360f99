import { Logger } from '@nestjs/common';
import makeWASocket, { downloadContentFromMessage, toBuffer } from '@whiskeysockets/baileys';
import type { DestinationStream } from 'pino';
import { AppConfig } from '../../../../infra/config/app-config.js';
import { createRootLogger, SIGNAL_STACK_REDACT } from '../../../../infra/logging/logging.module.js';
import { watchRefusals } from '../../../../infra/net/guarded-dispatcher.js';
import type { ProxyEndpoint } from '../../../../infra/net/proxy-url.js';
import type { ScanProxySource } from '../../proxy/scan-proxy.source.js';
import type { ScanDriver, ScanMediaRef, ScanOpenOptions, ScanSocket } from '../scan-driver.port.js';
import { BaileysConnection } from './baileys-connection.js';
import { BaileysLogger } from './baileys-logger.js';
import type { MakeBaileysSocket } from './baileys-socket.types.js';
import { parseMediaRef } from './mappers/baileys-media.mapper.js';
import { mediaClients, type MediaClients } from './media-tls.js';

// Clients kept per proxy URL (their pools shared by the numbers behind one proxy); a bound, not a cache policy.
const MAX_PROXIED_CLIENTS = 1_000;

/**
 * The scan channel over Baileys 7 (WhatsApp Web multi-device): the only code that imports it.
 * One `open()` is one socket (`BaileysConnection`); every event it emits is mapped to our
 * `ScanEvent`s, in order (`baileys-event.dispatch.ts`), ending with exactly one `closed`. Auth
 * state lives in `ScanAuthStorage` (Postgres); a write that fails ends the socket with
 * `authFailure`, because a session whose keys were half-saved breaks later ("Bad MAC") in ways no
 * reconnect repairs. Messages are classified and mapped by the pure functions of `mappers/`.
 * ChatModule reaches it through `LazyBaileysScanDriver`, which loads this file (and Baileys) on
 * first use.
 */
export class BaileysScanDriver implements ScanDriver {
  private readonly log = new Logger('ScanDriver');
  private readonly baileysLogger: BaileysLogger;
  private readonly makeSocket: MakeBaileysSocket;
  private warnedTxStorage = false;
  /** Every download through the address policy; with WA_MEDIA_CA_FILE that CA is trusted too. */
  private readonly media: MediaClients;
  /** The same clients through each egress proxy in use, by its URL. */
  private readonly proxied = new Map<string, MediaClients>();
  private readonly proxies: ScanProxySource;

  constructor(
    private readonly config: AppConfig,
    makeSocket?: MakeBaileysSocket,
    /** Where Baileys' lines go (tests read them); stdout like every log line by default. */
    logDestination?: DestinationStream,
    /** Each number's egress proxy; without one, WA_PROXY_URL for all. */
    proxies?: ScanProxySource,
  ) {
    this.makeSocket = makeSocket ?? ((socketConfig) => makeWASocket(socketConfig));
    // Baileys logs a lot, including per-message decrypt failures: its own level (WA_LOG_LEVEL),
    // silenced with the rest of the service when LOG_LEVEL is silent. Its normal lifecycle lines
    // that it logs as warnings or errors (the 515 after pairing) get their real level (BaileysLogger).
    const level = config.logLevel === 'silent' ? 'silent' : config.waLogLevel;
    // Key material by name one level down too (SIGNAL_STACK_REDACT): only Baileys' lines pay for that.
    const root = createRootLogger(config, logDestination);
    this.baileysLogger = new BaileysLogger(root.child({ module: 'baileys' }, { level, redact: SIGNAL_STACK_REDACT }));
    if (config.waMediaCa) {
      this.log.warn(
        `WA_MEDIA_CA_FILE is set: media hosts are also trusted when their certificate comes from ${config.waMediaCa.file} ` +
          '(meant for tests with the WhatsApp simulator)',
      );
    }
    this.media = mediaClients({ allowPrivate: config.allowPrivateMediaUrls, pem: config.waMediaCa?.pem });
    this.proxies = proxies ?? { proxyFor: () => Promise.resolve(config.waProxy ?? null) };
  }

  async open(options: ScanOpenOptions): Promise<ScanSocket> {
    const deps = {
      config: this.config,
      media: this.clientsFor(await this.proxies.proxyFor(options.workspaceId)),
      makeSocket: this.makeSocket,
      baileysLogger: this.baileysLogger,
      log: this.log,
      onTransactionStorageMissing: () => this.warnTransactionStorage(),
    };
    return BaileysConnection.open(deps, options);
  }

  private warnTransactionStorage(): void {
    if (this.warnedTxStorage) return;
    this.warnedTxStorage = true;
    this.log.warn('cannot find the key-transaction storage of Baileys sockets: each socket will slow this process down (see transaction-storage.ts)');
  }

  /** The media clients (and WebSocket agent) of a number: direct, or through its proxy. */
  private clientsFor(proxy: ProxyEndpoint | null): MediaClients {
    if (!proxy) return this.media;
    let clients = this.proxied.get(proxy.href);
    if (!clients) {
      clients = mediaClients({ allowPrivate: this.config.allowPrivateMediaUrls, pem: this.config.waMediaCa?.pem, proxy });
      if (this.proxied.size >= MAX_PROXIED_CLIENTS) this.proxied.delete(this.proxied.keys().next().value!);
      this.proxied.set(proxy.href, clients);
    }
    return clients;
  }

  async downloadMedia(ref: ScanMediaRef, workspaceId?: string): Promise<Buffer> {
    const parsed = parseMediaRef(ref);
    const media = workspaceId === undefined ? this.clientsFor(this.config.waProxy ?? null) : this.clientsFor(await this.proxies.proxyFor(workspaceId));
    // The host comes from the message (its sender chose `url`): only what the address policy allows.
    const watch = watchRefusals(media.dispatcher);
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
