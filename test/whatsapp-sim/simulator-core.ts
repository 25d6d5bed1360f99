// The simulator's state and the protocol callbacks of its connections (ConnectionHost): accounts,
// open sockets, per-device queues, acks and what the devices sent. WhatsAppSimulator adds the
// control API on top.
import { Curve, proto, type KeyPair } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { WebSocketServer } from 'ws';
import type { DeviceConnection, ConnectionHost } from './device-connection.js';
import { historyMessage, type HistoryConversation } from './history.js';
import type { CompanionHello } from './link-code.js';
import type { MediaHost } from './media-host.js';
import type { NotificationAck } from './passkey-gate.js';
import type { PasskeyStep } from './passkey-ceremony.js';
import { SenderKeyStore } from './sender-keys.js';
import { World, type ChatState, type Contact, type InboundMessage, type LinkedDevice, type SentMessage } from './sim-model.js';
import { streamError } from './stanzas.js';

export interface SimulatorOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** How many QR refs a registering client gets (Baileys shows one QR per ref). */
  qrRefs?: number;
  /**
   * The initial history sync at a device's first login (default on): the bootstrap batch (empty
   * unless `setInitialHistory`), then a last batch with progress 100. Baileys goes online at once.
   */
  initialHistory?: boolean;
  /** How long a passkey ceremony may take before it fails with `timeout` (default: the options' 10 minutes). */
  passkeyTimeoutMs?: number;
}

export interface DeliverInput {
  /** The linked account (phone number) that receives the message. */
  to: string;
  /** The contact's phone number. */
  from: string;
  name?: string;
  id?: string;
  /** A group jid (`…@g.us`): the contact writes in that group. */
  group?: string;
  /** Address the contact by LID (with its phone number as sender_pn). */
  lid?: boolean;
}

export interface QrInfo {
  /** The connection's refs; Baileys puts one at the start of each QR string. */
  refs: string[];
}

export interface SimEvents {
  refs: [QrInfo];
  login: [LinkedDevice];
  live: [LinkedDevice];
  offline: [LinkedDevice];
  acked: [LinkedDevice, string];
  sent: [LinkedDevice, SentMessage];
  chatstate: [ChatState];
  /** A client acknowledged a notification (`passkey_prologue_request`, …). */
  'notification-ack': [NotificationAck];
  /** A registering client asked for a pairing code for this number. */
  'pairing-code': [string];
  /** A passkey ceremony of this number reached a step (passkey-ceremony.ts). */
  passkey: [{ phone: string; step: PasskeyStep }];
}

/** The control API bound to one account, for tests that talk about "the phone". */
export interface SimPhone {
  readonly number: string;
  scan(qr: string): Promise<LinkedDevice>;
  deliverText(input: Omit<DeliverInput, 'to'> & { text: string }): Promise<string>;
  deliverFromPhone(input: { chat: string; text: string; id?: string }): Promise<string>;
  sent(): SentMessage[];
  chatStates(): ChatState[];
  waitForLive(): Promise<LinkedDevice>;
  waitForOffline(): Promise<void>;
  isOnline(): boolean;
  streamError(code: number): void;
  failure(reason: number): void;
  drop(): void;
  silence(): void;
  unlink(): void;
}

export const newMessageId = (): string => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

export const nowT = (): string => String(Math.floor(Date.now() / 1000));

export class SimulatorCore implements ConnectionHost {
  readonly world = new World();
  readonly serverStatic: KeyPair = Curve.generateKeyPair();
  readonly qrRefs: number;
  readonly events = new EventEmitter<SimEvents>();
  readonly senderKeys = new SenderKeyStore();
  /** The HTTPS media host (set by `start`). */
  media!: MediaHost;
  protected readonly connections = new Set<DeviceConnection>();
  protected readonly messages = new Map<string, { input: InboundMessage; to: string }>();
  protected readonly sentLog: SentMessage[] = [];
  protected readonly chatStateLog: ChatState[] = [];
  /** `${phone}/${id}` of every inbound message a device acknowledged. */
  protected readonly acked = new Set<string>();
  protected readonly initialHistory: boolean;
  /** Conversations the first login of a device of this phone receives as its initial history sync. */
  protected readonly historyAtLink = new Map<string, { conversations: HistoryConversation[]; lastBatch: boolean }>();
  protected wss?: WebSocketServer;
  private readonly acksOfNotifications: NotificationAck[] = [];

  protected constructor(options: SimulatorOptions) {
    this.qrRefs = options.qrRefs ?? 6;
    this.initialHistory = options.initialHistory ?? true;
  }

  /** Linked (not removed) devices of an account. */
  devicesOf(phone: string): LinkedDevice[] {
    const account = this.world.accounts.get(phone);
    return account ? [...account.devices.values()].filter((d) => !d.removed) : [];
  }

  /** Open connections of an account's devices. */
  connectionsOf(phone: string): DeviceConnection[] {
    return [...this.connections].filter((c) => c.open && c.device?.account.phone === phone);
  }

  /**
   * Puts `phone` on WhatsApp as a contact (onWhatsApp finds it). A number the world does not know
   * is not on WhatsApp; delivering from a number, or a device writing to one, also makes it known.
   */
  addContact(phone: string, name?: string): Contact {
    return this.world.contact(phone, name);
  }

  /** Open connections of clients that are not linked yet (showing a QR code, or waiting for a pairing code). */
  waitingToLink(): number {
    return [...this.connections].filter((c) => c.open && c.registration).length;
  }

  isOnline(phone: string): boolean {
    return this.connectionsOf(phone).some((c) => c.live);
  }

  /** Every notification acknowledgement clients sent, oldest first (optionally of one type). */
  notificationAcks(type?: string): NotificationAck[] {
    return this.acksOfNotifications.filter((ack) => type === undefined || ack.type === type);
  }

  // ---- ConnectionHost ------------------------------------------------------------------------

  onNotificationAck(_conn: DeviceConnection, ack: NotificationAck): void {
    this.acksOfNotifications.push(ack);
    this.events.emit('notification-ack', ack);
  }

  onPairingCodeRequested(_conn: DeviceConnection, hello: CompanionHello): void {
    this.events.emit('pairing-code', hello.phone);
  }

  onRefs(conn: DeviceConnection): void {
    if (conn.registration) this.events.emit('refs', { refs: conn.registration.refs });
  }

  onLogin(conn: DeviceConnection, device: LinkedDevice): void {
    // One socket per device: a second login replaces the first (Baileys sees 440 there).
    for (const other of this.connections) {
      if (other !== conn && other.open && other.device === device) other.sendAndClose(streamError(440));
    }
    this.events.emit('login', device);
  }

  async onLive(conn: DeviceConnection, device: LinkedDevice): Promise<void> {
    for (const message of [...device.pending]) await conn.deliver(message, true);
    conn.send({ tag: 'ib', attrs: {}, content: [{ tag: 'offline', attrs: { count: String(device.pending.length) } }] });
    if (this.initialHistory && !device.historyPushed) {
      device.historyPushed = true;
      const { INITIAL_BOOTSTRAP, RECENT } = proto.HistorySync.HistorySyncType;
      const initial = this.historyAtLink.get(device.account.phone) ?? { conversations: [], lastBatch: true };
      await conn.deliver(this.fromPhone(historyMessage(this.world, initial.conversations, INITIAL_BOOTSTRAP)), false);
      if (initial.lastBatch) await conn.deliver(this.fromPhone(historyMessage(this.world, [], RECENT, 100, 1)), false);
    }
    this.events.emit('live', device);
  }

  onAcked(device: LinkedDevice, id: string): void {
    const index = device.pending.findIndex((m) => m.id === id);
    if (index >= 0) device.pending.splice(index, 1);
    this.acked.add(`${device.account.phone}/${id}`);
    this.events.emit('acked', device, id);
  }

  onSent(device: LinkedDevice, sent: SentMessage): void {
    // Same id from the same account: the device (or its restarted process) sent it again.
    if (this.sentLog.some((m) => m.from === sent.from && m.id === sent.id)) sent.repeat = true;
    this.sentLog.push(sent);
    this.events.emit('sent', device, sent);
  }

  onChatState(_device: LinkedDevice, state: ChatState): void {
    this.chatStateLog.push(state);
    this.events.emit('chatstate', state);
  }

  /** Typing indicators linked devices sent, oldest first (optionally only those of `phone`'s devices). */
  chatStates(phone?: string): ChatState[] {
    return this.chatStateLog.filter((s) => phone === undefined || s.from === phone);
  }

  /** Resolves with the first chat state (already sent or future) that matches. */
  async waitForChatState(match: (s: ChatState) => boolean = () => true): Promise<ChatState> {
    const found = this.chatStateLog.find(match);
    if (found) return found;
    return new Promise((resolve) => {
      const listener = (state: ChatState): void => {
        if (!match(state)) return;
        this.events.off('chatstate', listener);
        resolve(state);
      };
      this.events.on('chatstate', listener);
    });
  }

  onClosed(conn: DeviceConnection): void {
    this.connections.delete(conn);
    if (conn.device) this.events.emit('offline', conn.device);
  }

  /** A message from the account's own phone (history sync, protocol messages). */
  protected fromPhone(message: proto.IMessage): InboundMessage {
    return { id: newMessageId(), from: 'self', lid: true, message, type: 'text', t: nowT() };
  }

  /** Queues for the device (until it acks) and sends now if it is online. */
  protected async push(device: LinkedDevice, msg: InboundMessage): Promise<void> {
    if (!device.pending.some((m) => m.id === msg.id)) device.pending.push(msg);
    await this.liveConnection(device)?.deliver(msg, false);
  }

  protected liveConnection(device: LinkedDevice): DeviceConnection | undefined {
    return [...this.connections].find((c) => c.live && c.device === device);
  }
}
