import type { MessageDetails } from '../../inbox/message-details.js';
import type { MessageKind } from '../../inbox/message-kinds.js';
import type { ScanNumberLookup, ScanOutgoing, ScanPresence, ScanReadKey, ScanSent } from './scan-outgoing.types.js';
import type { ScanPasskeyEvent, ScanPasskeyOptions, ScanPasskeySteps } from './scan-passkey.types.js';

// The outgoing side (what a send is, the messages it refers to) has its own file; importers of the port keep finding it here.
export type { ScanContent, ScanMessageRef, ScanNumberLookup, ScanOutgoing, ScanPresence, ScanReadKey, ScanSent } from './scan-outgoing.types.js';
export type { ScanPasskeyAssertion, ScanPasskeyEvent, ScanPasskeyOptions, ScanPasskeySteps } from './scan-passkey.types.js';

/**
 * The scan channel's only view of the WhatsApp Web protocol. The Baileys adapter
 * (`driver/baileys/`) implements it; tests use a fake. No Baileys type crosses this file: every
 * event is mapped to the shapes below by the adapter. Message kinds are the inbox's catalogue's
 * (`src/modules/inbox/message-kinds.ts`).
 */

/** One row of the auth state, already serialised by the driver (Baileys: `BufferJSON`). */
export interface ScanKeyWrite {
  /** Key type as the driver names it (`pre-key`, `session`, `lid-mapping`, …). */
  type: string;
  id: string;
  /** The serialised value; null deletes the row. */
  value: string | null;
}

/**
 * Where a session's auth state lives (Postgres, encrypted at rest). Values are opaque strings to
 * the store. A write that fails must reject: the driver then stops the session (half-saved keys
 * are what makes "Bad MAC" and lost sessions).
 */
export interface ScanAuthStorage {
  readCreds(): Promise<string | null>;
  writeCreds(value: string): Promise<void>;
  /** One query for all ids; ids without a row are absent from the map. */
  readKeys(type: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** All writes in one transaction. */
  writeKeys(writes: readonly ScanKeyWrite[]): Promise<void>;
  /** Deletes creds and every key (logged out or unlinked). */
  clear(): Promise<void>;
}

/** The kind of a message: every message a person sent has one (`unsupported` for what the inbox cannot show). */
export type ScanMessageType = MessageKind;

/**
 * What the driver needs to fetch a message's media later, from any process: opaque to everyone
 * but the driver, JSON-serialisable, and secret (it holds the media key), so store it encrypted.
 */
export type ScanMediaRef = string;

export interface ScanMedia {
  mimeType: string;
  fileName: string;
  fileSize: number;
  ref: ScanMediaRef;
}

/** A message as the channel delivered it (live, offline queue, history or own echo). */
export interface ScanMessage {
  /** The channel's message id. */
  externalId: string;
  /** The chat: `…@s.whatsapp.net` or `…@lid` for a person, `…@g.us` for a group. */
  chatJid: string;
  /** The other form of a 1:1 chat's peer (phone jid when `chatJid` is a LID, or the reverse). */
  chatJidAlt: string | null;
  isGroup: boolean;
  /** Sent by this linked number (from the phone, another device, or this socket). */
  fromMe: boolean;
  /** Who wrote it: the participant in groups, the peer (or own jid when `fromMe`) in 1:1 chats. */
  senderJid: string;
  senderJidAlt: string | null;
  /** The sender's push name; may be empty. */
  senderName: string;
  /** A group's name (its subject, from the group's metadata) when the driver knows it. */
  chatName?: string | null;
  type: ScanMessageType;
  /** Text, or the caption of media; a structured kind's readable rendering (message-details.ts). */
  content: string;
  media: ScanMedia | null;
  /** Playing time of audio, voice and video, in seconds (0 when unknown or not timed). */
  durationS?: number;
  /** The channel id of the message this one quotes, or ''. */
  quotedExternalId?: string;
  /** Location, contact cards, poll, mentions. */
  details?: MessageDetails | null;
  timestamp: Date;
}

/**
 * The chat an update (reaction, revoke, edit) was sent in, as on messages: the inbox applies it
 * only to a message of that chat, since the message id it names is the sender's choice.
 */
export interface ScanUpdateChat {
  chatJid: string;
  /** The other form of a 1:1 chat's peer (phone jid when `chatJid` is a LID, or the reverse). */
  chatJidAlt: string | null;
}

/** Someone reacted to a message of the chat (an empty emoji takes their reaction back). */
export interface ScanReaction extends ScanUpdateChat {
  /** The channel id of the message reacted to. */
  externalId: string;
  /** Who reacted: the peer, a group's participant, or this number (`fromMe`). */
  senderJid: string;
  fromMe: boolean;
  emoji: string;
}

/** A message deleted for everyone (by its sender, or in a group by an admin): "This message was deleted". */
export interface ScanRevoke extends ScanUpdateChat {
  externalId: string;
  /** Who deleted it, as a message's sender (`fromMe`: this number). */
  senderJid: string;
  fromMe: boolean;
}

/** A message's sender changed its text (or its caption): the channel id of the edited message. */
export interface ScanEdit extends ScanUpdateChat {
  externalId: string;
  content: string;
  /** Who edited it, as a message's sender (the inbox applies an edit only to its writer's message). */
  senderJid: string;
  senderJidAlt: string | null;
  fromMe: boolean;
}

/** `played`: a voice note, audio or video was played (stored as `read`; the `message.status` event says so). */
export type ScanReceiptStatus = 'sent' | 'delivered' | 'read' | 'played';

export interface ScanReceipt {
  chatJid: string;
  externalId: string;
  /** Only forward moves matter; the inbox ignores a status older than the stored one. */
  status: ScanReceiptStatus;
}

export interface ScanHistoryBatch {
  messages: ScanMessage[];
  /** Chat names the batch carries (jid → name), for conversations created from history. */
  chatNames: Record<string, string>;
  lidMappings: ScanLidMapping[];
  /** 0..100 when the phone says; null when unknown. */
  progress: number | null;
  /** The phone says this is the last batch of the initial sync. */
  isLatest: boolean;
}

export interface ScanLidMapping {
  lid: string;
  phone: string;
}

/** Who this socket is logged in as. */
export interface ScanIdentity {
  /** `<digits>:<device>@s.whatsapp.net` as the channel reports it. */
  jid: string;
  lid: string | null;
  name: string | null;
}

export type ScanEvent =
  /**
   * A new QR payload to show (the first, or a rotation). `expiresAt`: when the channel replaces it
   * (the next code, or the end of the codes), as the driver knows the channel's timing; absent
   * when it cannot tell.
   */
  | { type: 'qr'; code: string; expiresAt?: Date }
  /**
   * The phone scanned the QR code and the pairing succeeded: the number is linked as `identity`
   * (its creds are being saved), and no code is shown any more. The channel then restarts the
   * connection (a `closed` 515) and the next socket logs in (`open`). No `qr` of this socket follows.
   */
  | { type: 'paired'; identity: ScanIdentity }
  /** Logged in and online. */
  | { type: 'open'; identity: ScanIdentity }
  /**
   * WhatsApp answered the phone's scan (or its entered pairing code) with its passkey check
   * instead of pairing: `passkey_prologue_request` (WebAuthn request options for `rpId`, which is
   * whatsapp.com), or later `crsc_continuation`. The driver has acknowledged the notification and
   * shows no more codes; nothing was linked. `options`: the request carried its WebAuthn options.
   * `request`: with the ceremony on (CHAT_PASSKEY_CEREMONY), those options, for the person's
   * browser (docs/passkey.md); the socket then waits for the ceremony's steps instead of ending.
   */
  | { type: 'passkey'; notification: 'passkey_prologue_request' | 'crsc_continuation'; rpId: string | null; options: boolean; request?: ScanPasskeyOptions }
  | ScanPasskeyEvent
  /**
   * The socket is gone for good (every reconnect is a new `open()`). `code` is the channel's close
   * code (515 restart, 401 logged out, 403, 408, 428, 440, 500, 503, …); `qrExpired` tells the 408
   * of QR exhaustion from the 408 of a lost connection; `authFailure` marks a failed auth-state write,
   * and `storeUnavailable` one that failed only because the key store (Postgres) was unreachable:
   * nothing was written, so a new socket from the stored keys is safe once it is back. `unreached`:
   * a number that is not linked closed before its first QR code with no answer from the channel
   * (DNS failure, connection refused, TLS or handshake error): WhatsApp could not be reached.
   * `removed`: the channel said the phone removed this device (WhatsApp: a stream error
   * `<conflict type="device_removed">`); the code is then 401 (logged out). `proxy`: the socket
   * could not be opened through the number's egress proxy (refused, down, credentials refused, could
   * not reach WhatsApp); its text names the proxy (masked) and what went wrong.
   */
  | {
      type: 'closed';
      code: number;
      reason: string;
      qrExpired: boolean;
      authFailure: boolean;
      storeUnavailable?: true;
      unreached?: true;
      removed?: true;
      proxy?: string;
    }
  | { type: 'messages'; kind: 'notify' | 'append'; messages: ScanMessage[] }
  | { type: 'history'; batch: ScanHistoryBatch }
  | { type: 'receipts'; receipts: ScanReceipt[] }
  | { type: 'lid-mappings'; mappings: ScanLidMapping[] }
  /** Messages edited by their sender: the new text (or caption) of an earlier message. */
  | { type: 'edits'; edits: ScanEdit[] }
  | { type: 'reactions'; reactions: ScanReaction[] }
  | { type: 'revokes'; revokes: ScanRevoke[] }
  /** A group's subject changed (or a group was joined): its conversation takes the name. */
  | { type: 'group-names'; names: { chatJid: string; name: string }[] };

/**
 * Receives a socket's events in order. `stored`, given with a data event that carries inbound
 * messages (or changes of them), is called by the listener once the event's data is committed:
 * only then does the channel acknowledge those messages to WhatsApp. Never called (the process
 * died, the database stayed away), WhatsApp delivers them again on the next connection.
 */
export type ScanEventListener = (event: ScanEvent, stored?: () => void) => void;

/** What a message the service sent looked like, for the channel's retry requests (`getMessage`). */
export interface StoredScanMessage {
  type: ScanMessageType;
  content: string;
  /** A location's or contact cards' parts, when it has them. */
  details?: MessageDetails | null;
}

export interface ScanOpenOptions {
  workspaceId: string;
  auth: ScanAuthStorage;
  /** Answers the channel's resend requests from the message store. */
  getMessage(chatJid: string, externalId: string): Promise<StoredScanMessage | undefined>;
  /** Receives every event of this socket, in order. */
  listener: ScanEventListener;
}

/** A pairing code to type on the phone (Linked devices → Link with phone number instead). */
export interface ScanPairingCode {
  /** Eight characters as WhatsApp shows them, `ABCD-EFGH`. */
  code: string;
  /** When the connection that asked for it stops waiting (the driver's reckoning); null when it cannot tell. */
  expiresAt: Date | null;
}

/** One connection attempt. After `closed`, open a new one. */
export interface ScanSocket {
  /**
   * Asks WhatsApp for a pairing code for the number `phone` (digits, country code first) on a
   * socket that is registering (it has shown a QR code; no more are reported after this). The
   * phone entering it pairs as a scan does (`paired`, then the 515 restart).
   */
  requestPairingCode(phone: string): Promise<ScanPairingCode>;
  /** Sends a message, a reaction, a delete for everyone or an edit to the chat `jid`. */
  send(jid: string, outgoing: ScanOutgoing): Promise<ScanSent>;
  markRead(keys: readonly ScanReadKey[]): Promise<void>;
  /** Shows a chat state (typing, recording, stopped) in the chat `jid`. */
  presence(jid: string, state: ScanPresence): Promise<void>;
  /**
   * Whether each phone (digits) is on WhatsApp, one answer per phone in the order asked; rejects
   * with `ScanLookupTimeoutError` when WhatsApp does not answer in time.
   */
  lookup(phones: readonly string[]): Promise<ScanNumberLookup[]>;
  /** Unlinks the companion device on the phone, then closes (a `closed` 401 follows). */
  logout(): Promise<void>;
  /** Closes without unlinking; no reconnect is implied. */
  close(): void;
  /** The passkey ceremony's steps (a driver without the ceremony has none). */
  passkey?: ScanPasskeySteps;
}

/** Injection token of the driver (the Baileys adapter in production, a fake in tests). */
export const SCAN_DRIVER = Symbol('SCAN_DRIVER');

export interface ScanDriver {
  open(options: ScanOpenOptions): Promise<ScanSocket>;
  /**
   * Fetches a message's media from the channel's media hosts; needs no open socket. `workspaceId`:
   * the number whose media it is, so the download goes through that number's egress proxy.
   */
  downloadMedia(ref: ScanMediaRef, workspaceId?: string): Promise<Buffer>;
}

/** Injection token of the auth-state store (Postgres in production). */
export const SCAN_AUTH_STORAGE = Symbol('SCAN_AUTH_STORAGE');

export interface ScanAuthStorageFactory {
  forWorkspace(workspaceId: string): ScanAuthStorage;
}
