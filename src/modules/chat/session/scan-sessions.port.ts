import type { ScanEvent, ScanNumberLookup, ScanOutgoing, ScanPresence, ScanReadKey, ScanSent } from '../driver/scan-driver.port.js';

/** The session state of the contract (docs/contract.md#session-state) plus the sync state of `GET /api/chat/status`. */
export interface ScanSessionState {
  connected: boolean;
  logged_in: boolean;
  qr_pending: boolean;
  jid?: string;
}

export type SyncState = 'idle' | 'running' | 'done';

/**
 * Sessions as the rest of the service sees them, from any process (api or worker): the session
 * manager implements it and routes socket calls to the worker that holds the workspace's lease.
 */
export abstract class ScanSessions {
  abstract state(workspaceId: string): Promise<ScanSessionState>;
  /** Whether the socket is open right now (sending is possible). */
  abstract isConnected(workspaceId: string): Promise<boolean>;
  /** Throws `ScanNotConnectedError` when no open socket holds the workspace. */
  abstract send(workspaceId: string, jid: string, outgoing: ScanOutgoing): Promise<ScanSent>;
  abstract markRead(workspaceId: string, keys: readonly ScanReadKey[]): Promise<void>;
  /** A chat state to the chat `jid`; throws `ScanNotConnectedError` as `send` does. */
  abstract presence(workspaceId: string, jid: string, state: ScanPresence): Promise<void>;
  /**
   * Whether each phone (digits only) is on WhatsApp, asked of WhatsApp now (no cache here). Throws
   * `ScanNotConnectedError` as `send` does, `ScanLookupTimeoutError` when WhatsApp does not answer in time.
   */
  abstract lookup(workspaceId: string, phones: readonly string[]): Promise<ScanNumberLookup[]>;
}

export const LOOKUP_TIMEOUT_TEXT = 'WhatsApp did not answer the number check in time';

/** The socket asked WhatsApp whether numbers exist and got no answer in time. */
export class ScanLookupTimeoutError extends Error {
  constructor() {
    super(LOOKUP_TIMEOUT_TEXT);
    this.name = 'ScanLookupTimeoutError';
  }
}

/** The request does not fit the session's state (e.g. a pairing code for a number already linked): 409 with its text. */
export class ScanConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanConflictError';
  }
}

export class ScanNotConnectedError extends Error {
  constructor() {
    super('chat is not connected');
    this.name = 'ScanNotConnectedError';
  }
}

/** Every non-lifecycle event of a socket, handed over in order by the process holding it. */
export type ScanDataEvent = Exclude<
  ScanEvent,
  | { type: 'qr' }
  | { type: 'paired' }
  | { type: 'open' }
  | { type: 'closed' }
  | { type: 'passkey' }
  | { type: 'passkey-confirmation' }
  | { type: 'passkey-failed' }
>;

/**
 * The inbox side of the channel (ingest, history, receipts, LID mappings): implemented in
 * `chat/inbound/`, called by the session manager for each data event. It must not throw for
 * one bad message; a rejection is logged by the caller and the event is not retried.
 */
export abstract class ScanEventHandler {
  abstract handle(workspaceId: string, event: ScanDataEvent): Promise<void>;
}
