import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { ScanAuthStorage, ScanKeyWrite } from '../scan-driver.port.js';

/** Serialises an auth-state value the way Baileys' own stores do (Buffers as base64). */
export function serialiseAuthValue(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

/** Revives a stored value: Buffers back from base64, app-state keys back into their proto class. */
export function reviveAuthValue<T extends keyof SignalDataTypeMap>(type: T, raw: string): SignalDataTypeMap[T] {
  const value: unknown = JSON.parse(raw, BufferJSON.reviver);
  // protobufjs serialises bytes fields as base64 strings (toJSON); fromObject turns them back.
  if (type === 'app-state-sync-key') return proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
  return value as SignalDataTypeMap[T];
}

export interface StoredAuthState {
  state: AuthenticationState;
  /** Saves the creds as they are now; serialised, so saves land in the order they were asked. */
  saveCreds(): Promise<void>;
  /** Resolves once every write started so far has finished (succeeded or failed). */
  settled(): Promise<void>;
  /**
   * From now on writes are dropped (they resolve, nothing is written): the socket is closed. Its
   * stragglers (a message still being decrypted as the connection ended) must not land after the
   * session's end was handled: after a logout they would put keys back into a cleared store, and
   * the message itself is never handed over, so WhatsApp sends it again, to be decrypted with the
   * keys as stored.
   */
  seal(): void;
}

/**
 * Baileys' auth state on top of our `ScanAuthStorage`: one `readKeys` per `keys.get`, one
 * `writeKeys` (one transaction) per `keys.set`. A failed write or creds save is reported to
 * `onWriteFailure` (which ends the socket) and still rejects, so Baileys sees it too: keys that
 * were not saved must never be used as if they were.
 */
export async function loadAuthState(storage: ScanAuthStorage, onWriteFailure: (error: unknown) => void): Promise<StoredAuthState> {
  const stored = await storage.readCreds();
  const creds: AuthenticationCreds = stored ? (JSON.parse(stored, BufferJSON.reviver) as AuthenticationCreds) : initAuthCreds();

  const inFlight = new Set<Promise<void>>();
  let sealed = false;
  const reporting = async (write: Promise<void>): Promise<void> => {
    const tracked = write.then(
      () => undefined,
      (error: unknown) => {
        onWriteFailure(error);
        throw error;
      },
    );
    const done = tracked.catch(() => undefined).finally(() => inFlight.delete(done));
    inFlight.add(done);
    return tracked;
  };

  const keys: SignalKeyStore = {
    async get(type, ids) {
      const found = await storage.readKeys(type, ids);
      const result: { [id: string]: SignalDataTypeMap[typeof type] } = {};
      for (const [id, raw] of found) result[id] = reviveAuthValue(type, raw);
      return result;
    },
    async set(data: SignalDataSet) {
      const writes: ScanKeyWrite[] = [];
      for (const [type, items] of Object.entries(data)) {
        for (const [id, value] of Object.entries(items ?? {})) {
          writes.push({ type, id, value: value === null || value === undefined ? null : serialiseAuthValue(value) });
        }
      }
      if (writes.length > 0 && !sealed) await reporting(storage.writeKeys(writes));
    },
    async clear() {
      if (!sealed) await reporting(storage.clear());
    },
  };

  let lastSave: Promise<void> = Promise.resolve();
  const saveCreds = (): Promise<void> => {
    if (sealed) return Promise.resolve();
    const snapshot = serialiseAuthValue(creds);
    const save = reporting(lastSave.catch(() => undefined).then(() => storage.writeCreds(snapshot)));
    lastSave = save;
    return save;
  };
  const settled = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.all(inFlight);
  };

  const seal = (): void => {
    sealed = true;
  };

  return { state: { creds, keys }, saveCreds, settled, seal };
}
