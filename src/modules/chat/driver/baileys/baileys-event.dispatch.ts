import type { AuthenticationCreds, BaileysEventMap } from '@whiskeysockets/baileys';
import type { ScanEvent, ScanIdentity } from '../scan-driver.port.js';
import type { GroupMetadataCache } from './group-metadata.cache.js';
import type { OwnJids } from './mappers/baileys-content.types.js';
import { mapHistory } from './mappers/baileys-history.mapper.js';
import { mapLidMapping } from './mappers/baileys-lid.mapper.js';
import { mapUpsert } from './mappers/baileys-message.mapper.js';
import { mapReceipts } from './mappers/baileys-update.mapper.js';

/** One `ev.process` batch: Baileys buffers its events and hands several families over at once. */
export type BaileysEvents = Partial<BaileysEventMap>;

// How long Baileys shows each QR code before the next (socket.js: `qrTimeout || 60000` for the
// first code of a socket, then `qrTimeout || 20000`); the driver sets no `qrTimeout`.
export const FIRST_QR_MS = 60_000;
export const NEXT_QR_MS = 20_000;

/**
 * What a socket got as far as: a QR code shown, the phone's scan (pair-success); a pairing code
 * asked for, WhatsApp's passkey check (baileys-pairing.ts, baileys-passkey.ts): from then on no
 * QR code is reported.
 */
export interface ConnectionProgress {
  qrShown: boolean;
  paired: boolean;
  pairingCode?: boolean;
  passkey?: boolean;
}

/** What the dispatch reads and drives of one socket's connection (`BaileysConnection`). */
export interface DispatchTarget {
  /** The creds Baileys works on: updated in place, then saved. */
  readonly creds: AuthenticationCreds;
  saveCreds(): Promise<void>;
  readonly progress: ConnectionProgress;
  /** Who the socket is logged in (or just paired) as. */
  identity(): ScanIdentity;
  own(): OwnJids;
  readonly groups: GroupMetadataCache;
  /** Reads a group's metadata into `groups`, in bounded time; a group that cannot be read stays unnamed. */
  fetchGroup(jid: string): Promise<void>;
  emit(event: ScanEvent): void;
  /** Emits what `work` answers, in order with every other event (later ones wait for it). */
  emitLater(work: () => Promise<ScanEvent | null>): void;
  /** Baileys closed the socket: the connection's one `closed` follows once its writes settled. */
  socketEnded(error: Error | undefined): void;
}

function saveCreds(events: BaileysEvents, target: DispatchTarget): void {
  Object.assign(target.creds, events['creds.update']);
  void target.saveCreds().catch(() => undefined); // reported (and the socket ended) by the connection
}

// Pair-success: Baileys saves the new `me` (creds.update) and says `isNewLogin`; the 515 follows.
// After a pairing code was asked for, `me` is already the number asked for (Baileys writes it
// then), so only `isNewLogin` tells the pairing.
function paired(events: BaileysEvents, target: DispatchTarget): void {
  const { progress } = target;
  const newMe = progress.qrShown && !progress.pairingCode && Boolean(events['creds.update']?.me?.id);
  const isPaired = Boolean(events['connection.update']?.isNewLogin) || newMe;
  if (!isPaired || progress.paired) return;
  progress.paired = true;
  target.emit({ type: 'paired', identity: target.identity() });
}

// Baileys leaves its QR rotation timer running after pair-success: a code it shows then is for
// nobody (the number is linked), so it is not reported; nor after a pairing code was asked for
// (the person types that code) or WhatsApp's passkey check (nothing can be linked on this socket).
function qr(events: BaileysEvents, target: DispatchTarget): void {
  const code = events['connection.update']?.qr;
  const { progress } = target;
  if (!code || progress.paired || progress.pairingCode || progress.passkey) return;
  const lifetime = target.progress.qrShown ? NEXT_QR_MS : FIRST_QR_MS;
  target.progress.qrShown = true;
  target.emit({ type: 'qr', code, expiresAt: new Date(Date.now() + lifetime) });
}

function opened(events: BaileysEvents, target: DispatchTarget): void {
  if (events['connection.update']?.connection === 'open') target.emit({ type: 'open', identity: target.identity() });
}

function lidMappings(events: BaileysEvents, target: DispatchTarget): void {
  const mapping = events['lid-mapping.update'] && mapLidMapping(events['lid-mapping.update']);
  if (mapping) target.emit({ type: 'lid-mappings', mappings: [mapping] });
}

function history(events: BaileysEvents, target: DispatchTarget): void {
  const set = events['messaging-history.set'];
  if (set) target.emit({ type: 'history', batch: mapHistory(set, target.own()) });
}

function groupNames(events: BaileysEvents, target: DispatchTarget): void {
  for (const metadata of events['groups.upsert'] ?? []) target.groups.set(metadata);
  for (const change of events['groups.update'] ?? []) target.groups.merge(change);
  const renamed = [...(events['groups.upsert'] ?? []), ...(events['groups.update'] ?? [])]
    .filter((group) => group.id && group.subject)
    .map((group) => ({ chatJid: group.id!, name: group.subject! }));
  if (renamed.length > 0) target.emit({ type: 'group-names', names: renamed });
}

// A group message whose group's name is not cached is handed over once the metadata was read
// (or could not be), named by the group's subject; the updates (edits, reactions, revokes)
// follow the messages, in order with them (emit queues behind a message that waits).
function messagesAndUpdates(events: BaileysEvents, target: DispatchTarget): void {
  const upsert = events['messages.upsert'];
  if (!upsert) return;
  const { messages, edits, reactions, revokes } = mapUpsert(upsert.messages, target.own());
  const unnamed = [...new Set(messages.filter((m) => m.isGroup && !target.groups.get(m.chatJid)).map((m) => m.chatJid))];
  const named = (): ScanEvent => ({
    type: 'messages',
    kind: upsert.type,
    messages: messages.map((m) => (m.isGroup ? { ...m, chatName: target.groups.get(m.chatJid)?.subject || null } : m)),
  });
  if (messages.length === 0) {
    // nothing to hand over
  } else if (unnamed.length === 0) {
    target.emit(named());
  } else {
    target.emitLater(async () => {
      await Promise.all(unnamed.map((jid) => target.fetchGroup(jid)));
      return named();
    });
  }
  if (edits.length > 0) target.emit({ type: 'edits', edits });
  if (reactions.length > 0) target.emit({ type: 'reactions', reactions });
  if (revokes.length > 0) target.emit({ type: 'revokes', revokes });
}

function receipts(events: BaileysEvents, target: DispatchTarget): void {
  const mapped = mapReceipts(events);
  if (mapped.length > 0) target.emit({ type: 'receipts', receipts: mapped });
}

function participants(events: BaileysEvents, target: DispatchTarget): void {
  const update = events['group-participants.update'];
  if (update) target.groups.delete(update.id);
}

function closed(events: BaileysEvents, target: DispatchTarget): void {
  const update = events['connection.update'];
  if (update?.connection === 'close') target.socketEnded(update.lastDisconnect?.error);
}

interface DispatchStep {
  /** The Baileys events the step reads: it runs when the batch holds one of them. */
  readonly reads: readonly (keyof BaileysEventMap)[];
  readonly run: (events: BaileysEvents, target: DispatchTarget) => void;
}

/**
 * Every Baileys event family the driver handles, in the order it handles them within one batch:
 * the order of the `ScanEvent`s the listener receives, and part of what the driver promises.
 * Families not listed (chats, contacts, presence, calls, …) are not read.
 *
 * - creds first: `paired` names the identity from the `me` the same batch just saved;
 * - `paired` before `qr` and `open`: a code raised with the pair-success is for nobody;
 * - LID mappings before the data: a batch's contacts are linked before its history and
 *   messages are stored;
 * - groups before messages: a message of a group the same batch joined or renamed takes the name
 *   from the cache, without asking WhatsApp;
 * - messages, then their edits, reactions and revokes, then receipts: an update or a status move
 *   of a message in the same batch (Baileys folds an own message's status into its upsert) finds
 *   it stored. Reactions and revokes are read from the upsert that carries them (the
 *   `reactionMessage`, the REVOKE `protocolMessage`), each once: Baileys' own `messages.reaction`
 *   and REVOKE `messages.update` events, raised from the same upsert, are not read;
 * - membership changes after messages: this batch's messages were named from the cached metadata,
 *   and the next group send reads the new participant list;
 * - the close last: `closed` is the last event of a socket.
 */
const DISPATCH_ORDER: readonly DispatchStep[] = [
  { reads: ['creds.update'], run: saveCreds },
  { reads: ['connection.update', 'creds.update'], run: paired },
  { reads: ['connection.update'], run: qr },
  { reads: ['connection.update'], run: opened },
  { reads: ['lid-mapping.update'], run: lidMappings },
  { reads: ['messaging-history.set'], run: history },
  { reads: ['groups.upsert', 'groups.update'], run: groupNames },
  { reads: ['messages.upsert'], run: messagesAndUpdates },
  { reads: ['messages.update', 'message-receipt.update', 'messages.upsert'], run: receipts },
  { reads: ['group-participants.update'], run: participants },
  { reads: ['connection.update'], run: closed },
];

/** One batch of Baileys events, step by step in `DISPATCH_ORDER`. */
export function dispatch(events: BaileysEvents, target: DispatchTarget): void {
  for (const step of DISPATCH_ORDER) {
    if (step.reads.some((name) => events[name] !== undefined)) step.run(events, target);
  }
}
