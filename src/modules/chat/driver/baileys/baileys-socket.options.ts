import {
  type AuthenticationState,
  Browsers,
  DEFAULT_CONNECTION_CONFIG,
  type GroupMetadata,
  makeCacheableSignalKeyStore,
  proto,
  type UserFacingSocketConfig,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { AppConfig } from '../../../../infra/config/app-config.js';
import type { BaileysLogger } from './baileys-logger.js';
import type { MediaClients } from './media-tls.js';
import type { SignalKeyCache } from './signal-key.cache.js';

export interface SocketOptionsInput {
  config: AppConfig;
  media: MediaClients;
  /** Baileys' logger for this socket. */
  logger: BaileysLogger;
  /** The auth state as stored (Postgres); its keys get the socket's cache in front. */
  auth: AuthenticationState;
  keyCache: SignalKeyCache;
  /** Rebuilds a sent message for the channel's resend requests; undefined when it cannot. */
  getMessage: (key: WAMessageKey) => Promise<proto.IMessage | undefined>;
  /** A group's metadata, cached, for every group send. */
  cachedGroupMetadata: (jid: string) => Promise<GroupMetadata | undefined>;
  /** Takes an inbound message's receipt, to send once the message is stored (scripts/patch-baileys.mjs). */
  deferInboundReceipt: (key: WAMessageKey, send: () => Promise<void>) => void;
  /** True while the QR codes must not run out (the passkey ceremony; scripts/patch-baileys.mjs). */
  holdPairingQr: () => boolean;
}

/**
 * Baileys' socket options with the two the project's patch adds (scripts/patch-baileys.mjs):
 * Baileys then hands each inbound message's receipt to `deferInboundReceipt` instead of sending
 * it before the message is emitted, and its QR timer neither rotates nor ends the socket while
 * `holdPairingQr()` says so.
 */
export type PatchedSocketConfig = UserFacingSocketConfig & Pick<SocketOptionsInput, 'deferInboundReceipt' | 'holdPairingQr'>;

// Baileys types both agents as https.Agent; `ws` and node:https take any http.Agent (a proxy's
// agent is one: it opens the tunnel and does the TLS itself).
const asHttpsAgent = (agent: HttpAgent): HttpsAgent => agent as HttpsAgent;

/** The companion's name and platform (Baileys registers it; the passkey ceremony names the platform again). */
export const SOCKET_BROWSER: [string, string, string] = Browsers.ubuntu('Chrome');

/** How every socket of the driver is made: what it fetches, syncs, retries and announces. */
export function socketOptions({
  config,
  media,
  logger,
  auth,
  keyCache,
  getMessage,
  cachedGroupMetadata,
  deferInboundReceipt,
  holdPairingQr,
}: SocketOptionsInput): PatchedSocketConfig {
  return {
    deferInboundReceipt,
    holdPairingQr,
    auth: { creds: auth.creds, keys: makeCacheableSignalKeyStore(auth.keys, logger, keyCache) },
    waWebSocketUrl: config.waWebSocketUrl,
    // History-sync and app-state blobs through the address policy (the URL comes from a message);
    // the upload agent only with WA_MEDIA_CA_FILE (tests: the simulator's media host) or a proxy.
    options: { dispatcher: media.dispatcher } as RequestInit,
    ...(media.agent ? { fetchAgent: asHttpsAgent(media.agent) } : {}),
    // The number's egress proxy (WA_PROXY_URL or PUT /api/chat/proxy) carries the WebSocket too.
    ...(media.socketAgent ? { agent: asHttpsAgent(media.socketAgent) } : {}),
    // Never fetched: a start-up that depends on GitHub or web.whatsapp.com being reachable
    // would fail in odd ways; WA_VERSION overrides the bundled one when WhatsApp refuses it.
    version: config.waVersion ?? DEFAULT_CONNECTION_CONFIG.version,
    logger,
    // A real OS name: WhatsApp refuses companion names it does not know (pairing codes).
    browser: SOCKET_BROWSER,
    markOnlineOnConnect: false,
    // A silent connection (dead network path) is noticed this long + 5 s after its last answer.
    keepAliveIntervalMs: config.waKeepAliveMs,
    syncFullHistory: false,
    // The initial bootstrap (and recent/push-name chunks, which carry LID mappings), never FULL.
    shouldSyncHistoryMessage: (notification) => notification.syncType !== proto.HistorySync.HistorySyncType.FULL,
    // A failed key write already ends the session; retrying it for 30 s only delays that.
    transactionOpts: { maxCommitRetries: 1, delayBetweenTriesMs: 0 },
    getMessage,
    cachedGroupMetadata,
  };
}
