import type { UserFacingSocketConfig, WASocket } from '@whiskeysockets/baileys';

// Types only (erased at run time), so that importing this file does not load Baileys.

/**
 * The part of Baileys' socket the driver uses; tests hand in a fake with a real Baileys `ev`. The
 * raw stanza primitives (`ws`, `sendNode`), `requestPairingCode`, `sendPresenceUpdate` and
 * `onWhatsApp` are optional: a fake without them has no passkey notifications, no pairing codes,
 * no chat states and no number checks.
 */
export type BaileysSocket = Pick<WASocket, 'ev' | 'user' | 'sendMessage' | 'readMessages' | 'logout' | 'end' | 'groupMetadata'> &
  Partial<Pick<WASocket, 'authState' | 'ws' | 'sendNode' | 'query' | 'requestPairingCode' | 'sendPresenceUpdate' | 'onWhatsApp'>>;
export type MakeBaileysSocket = (config: UserFacingSocketConfig) => BaileysSocket;

/** Optional override of Baileys' `makeWASocket` (tests). */
export const BAILEYS_SOCKET_FACTORY = Symbol('BAILEYS_SOCKET_FACTORY');
