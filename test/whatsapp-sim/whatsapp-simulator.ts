// A loopback WhatsApp server for tests: real Baileys clients connect to `sim.url` (the service's
// WA_WEBSOCKET_URL) and go through QR pairing, login, Signal-encrypted messages and close codes.
// This class is the control API; tests drive "phones" (linked accounts) and "contacts" through it.
import { Curve, proto, type KeyPair } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { DeviceConnection, type ConnectionHost } from './device-connection.js';
import { historyMessage, type HistoryConversation } from './history.js';
import { World, type InboundMessage, type LinkedDevice, type SentMessage } from './sim-model.js';
import { streamError } from './stanzas.js';

export interface SimulatorOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** How many QR refs a registering client gets (Baileys shows one QR per ref). */
  qrRefs?: number;
  /** Send an empty initial history sync at a device's first login, so Baileys goes online at once. */
  initialHistory?: boolean;
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
}

const newMessageId = (): string => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

export class WhatsAppSimulator implements ConnectionHost {
  readonly world = new World();
  readonly serverStatic: KeyPair = Curve.generateKeyPair();
  readonly qrRefs: number;
  readonly events = new EventEmitter<SimEvents>();
  private readonly connections = new Set<DeviceConnection>();
  private readonly messages = new Map<string, { input: InboundMessage; to: string }>();
  private readonly sentLog: SentMessage[] = [];
  /** `${phone}/${id}` of every inbound message a device acknowledged. */
  private readonly acked = new Set<string>();
  private readonly initialHistory: boolean;
  /** Conversations the first login of a device of this phone receives as its initial history sync. */
  private readonly historyAtLink = new Map<string, HistoryConversation[]>();
  private wss?: WebSocketServer;

  private constructor(options: SimulatorOptions) {
    this.qrRefs = options.qrRefs ?? 6;
    this.initialHistory = options.initialHistory ?? true;
  }

  static async start(options: SimulatorOptions = {}): Promise<WhatsAppSimulator> {
    const sim = new WhatsAppSimulator(options);
    const wss = new WebSocketServer({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    await once(wss, 'listening');
    wss.on('connection', (ws) => sim.connections.add(new DeviceConnection(ws, sim)));
    sim.wss = wss;
    return sim;
  }

  get url(): string {
    const address = this.wss?.address() as AddressInfo | undefined;
    if (!address) throw new Error('simulator not started');
    return `ws://${address.address}:${address.port}/ws/chat`;
  }

  async stop(): Promise<void> {
    for (const conn of this.connections) conn.close();
    const wss = this.wss;
    if (!wss) return;
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  // ---- pairing -------------------------------------------------------------------------------

  /** Resolves when a registering client has been sent its QR refs (it then shows a QR). */
  async waitForQr(): Promise<QrInfo> {
    const waiting = [...this.connections].find((c) => c.open && c.registration);
    if (waiting?.registration) return { refs: waiting.registration.refs };
    const [info] = await once(this.events, 'refs');
    return info as QrInfo;
  }

  /**
   * The phone `phone` scans a QR string (as Baileys emits it and the service renders it). Resolves
   * with the new linked device once the client has signed the pairing; the client then restarts (515).
   */
  async scanQr(qr: string, phone: string): Promise<LinkedDevice> {
    const fields = qr.slice(qr.indexOf('#') + 1).split(',');
    if (fields.length < 4) throw new Error(`not a WhatsApp pairing QR: ${qr}`);
    const [ref, , , advSecret] = fields;
    const conn = [...this.connections].find((c) => c.open && c.registration?.refs.includes(ref));
    if (!conn) throw new Error(`no connected client shows the QR ref ${ref}`);
    return conn.pair(this.world.account(phone), Buffer.from(advSecret, 'base64'));
  }

  /** Makes every QR currently shown end at once: Baileys closes with 408 "QR refs attempts ended". */
  expireQr(): void {
    for (const conn of this.connections) if (conn.open && conn.registration) conn.expireRefs();
  }

  // ---- inbound messages ----------------------------------------------------------------------

  /** A contact writes a text; returns its id. Delivered now if the device is online, else at its next login. */
  async deliverText(input: DeliverInput & { text: string }): Promise<string> {
    return this.deliver(input, { conversation: input.text }, 'text');
  }

  /**
   * A contact sends an image or a document. The media bytes are not hosted (no HTTPS media host in
   * the simulator), so downloads fail; the message, its caption, mimetype and file name arrive.
   */
  async deliverMedia(
    input: DeliverInput & { kind: 'image' | 'document'; mimetype: string; caption?: string; fileName?: string },
  ): Promise<string> {
    const common = {
      url: 'https://mmg.whatsapp.net/sim/none',
      directPath: '/sim/none',
      mimetype: input.mimetype,
      mediaKey: randomBytes(32),
      fileSha256: randomBytes(32),
      fileEncSha256: randomBytes(32),
      fileLength: 1024,
      ...(input.caption ? { caption: input.caption } : {}),
    };
    const message: proto.IMessage =
      input.kind === 'image'
        ? { imageMessage: { ...common, width: 64, height: 64 } }
        : { documentMessage: { ...common, fileName: input.fileName ?? 'file.bin' } };
    return this.deliver(input, message, 'media', input.kind === 'image' ? 'image' : 'document');
  }

  /** Sends a message already delivered once again, with the same id (freshly encrypted, as a retry would be). */
  async redeliver(id: string): Promise<void> {
    const known = this.messages.get(id);
    if (!known) throw new Error(`unknown message ${id}`);
    for (const device of this.devicesOf(known.to)) await this.push(device, known.input);
  }

  /** Resolves when a linked device of `phone` has acknowledged (receipted) message `id`. */
  async waitForAck(id: string, phone?: string): Promise<void> {
    const acked = (device: LinkedDevice, ackedId: string): boolean =>
      ackedId === id && (!phone || device.account.phone === phone);
    const seen = [...this.acked].some((key) => key.endsWith(`/${id}`) && (!phone || key === `${phone}/${id}`));
    if (seen) return;
    await new Promise<void>((resolve) => {
      const listener = (device: LinkedDevice, ackedId: string): void => {
        if (!acked(device, ackedId)) return;
        this.events.off('acked', listener);
        resolve();
      };
      this.events.on('acked', listener);
    });
  }

  /** Pushes a history-sync batch (inline payload; RECENT unless told) from the phone to its linked devices. */
  async pushHistory(phone: string, conversations: HistoryConversation[], syncType = proto.HistorySync.HistorySyncType.RECENT): Promise<string> {
    const message = historyMessage(this.world, conversations, syncType);
    const input: InboundMessage = { id: newMessageId(), from: 'self', lid: true, message, type: 'text', t: nowT() };
    this.messages.set(input.id, { input, to: phone });
    for (const device of this.devicesOf(phone)) await this.push(device, input);
    return input.id;
  }

  /** The initial history sync a new device of `phone` gets at its first login (empty by default). */
  setInitialHistory(phone: string, conversations: HistoryConversation[]): void {
    this.historyAtLink.set(phone, conversations);
  }

  // ---- what the devices sent -----------------------------------------------------------------

  /** Messages linked devices sent, decrypted, oldest first (optionally only those of `phone`'s devices). */
  sent(phone?: string): SentMessage[] {
    return phone ? this.sentLog.filter((m) => m.from === phone) : [...this.sentLog];
  }

  /** Resolves with the first sent message (already sent or future) that matches. */
  async waitForSent(match: (m: SentMessage) => boolean = () => true): Promise<SentMessage> {
    const found = this.sentLog.find(match);
    if (found) return found;
    return new Promise((resolve) => {
      const listener = (_device: LinkedDevice, sent: SentMessage): void => {
        if (!match(sent)) return;
        this.events.off('sent', listener);
        resolve(sent);
      };
      this.events.on('sent', listener);
    });
  }

  /** The contact's receipts for a message a device sent: delivered, then (optionally) read. */
  sendReceipt(id: string, type: 'delivered' | 'read'): void {
    const sent = this.sentLog.find((m) => m.id === id);
    if (!sent) throw new Error(`no device sent a message ${id}`);
    const attrs: Record<string, string> = { id, from: sent.to, t: nowT() };
    if (type === 'read') attrs.type = 'read';
    for (const device of this.devicesOf(sent.from)) this.liveConnection(device)?.send({ tag: 'receipt', attrs });
  }

  // ---- connection control --------------------------------------------------------------------

  /** `<stream:error>` with a code (515 restart, 401 logged out, 440 replaced, 503, …), then close. */
  streamError(phone: string, code: number): void {
    if (code === 401) for (const device of this.devicesOf(phone)) device.removed = true;
    for (const conn of this.connectionsOf(phone)) conn.sendAndClose(streamError(code));
  }

  /** `<failure reason=…>`, then close; 401 also unlinks the devices (they are refused from then on). */
  failure(phone: string, reason: number): void {
    if (reason === 401) for (const device of this.devicesOf(phone)) device.removed = true;
    for (const conn of this.connectionsOf(phone)) conn.sendAndClose({ tag: 'failure', attrs: { reason: String(reason) } });
  }

  /** Drops the TCP connection without a word (the client sees a plain close). */
  dropConnection(phone?: string): void {
    const conns = phone ? this.connectionsOf(phone) : [...this.connections];
    for (const conn of conns) conn.close();
  }

  /** The connections of `phone` go silent: open, but nothing answered or sent (a dead network path). */
  silence(phone: string): void {
    for (const conn of this.connectionsOf(phone)) conn.silent = true;
  }

  /** The phone unlinks its devices: connected ones get 401 now, the others at their next login. */
  unlink(phone: string): void {
    this.streamError(phone, 401);
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

  isOnline(phone: string): boolean {
    return this.connectionsOf(phone).some((c) => c.live);
  }

  /** Resolves when a device of `phone` is logged in and takes live messages. */
  async waitForLive(phone: string): Promise<LinkedDevice> {
    const live = this.connectionsOf(phone).find((c) => c.live);
    if (live?.device) return live.device;
    return new Promise((resolve) => {
      const listener = (device: LinkedDevice): void => {
        if (device.account.phone !== phone) return;
        this.events.off('live', listener);
        resolve(device);
      };
      this.events.on('live', listener);
    });
  }

  /** Resolves when no connection of `phone`'s devices is open any more. */
  async waitForOffline(phone: string): Promise<void> {
    while (this.connectionsOf(phone).length) await once(this.events, 'offline');
  }

  // ---- ConnectionHost ------------------------------------------------------------------------

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
      const input: InboundMessage = {
        id: newMessageId(),
        from: 'self',
        lid: true,
        message: historyMessage(
          this.world,
          this.historyAtLink.get(device.account.phone) ?? [],
          proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
        ),
        type: 'text',
        t: nowT(),
      };
      await conn.deliver(input, false);
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
    this.sentLog.push(sent);
    this.events.emit('sent', device, sent);
  }

  onClosed(conn: DeviceConnection): void {
    this.connections.delete(conn);
    if (conn.device) this.events.emit('offline', conn.device);
  }

  // ---- internals -----------------------------------------------------------------------------

  private async deliver(input: DeliverInput, message: proto.IMessage, type: InboundMessage['type'], mediaType?: string): Promise<string> {
    const contact = this.world.contact(input.from, input.name);
    const msg: InboundMessage = {
      id: input.id ?? newMessageId(),
      from: contact,
      lid: input.lid ?? false,
      message,
      type,
      t: nowT(),
      ...(input.group ? { group: input.group } : {}),
      ...(mediaType ? { mediaType } : {}),
    };
    this.messages.set(msg.id, { input: msg, to: input.to });
    const devices = this.devicesOf(input.to);
    if (!devices.length) throw new Error(`no device is linked to ${input.to}`);
    for (const device of devices) await this.push(device, msg);
    return msg.id;
  }

  /** Queues for the device (until it acks) and sends now if it is online. */
  private async push(device: LinkedDevice, msg: InboundMessage): Promise<void> {
    if (!device.pending.some((m) => m.id === msg.id)) device.pending.push(msg);
    await this.liveConnection(device)?.deliver(msg, false);
  }

  private liveConnection(device: LinkedDevice): DeviceConnection | undefined {
    return [...this.connections].find((c) => c.live && c.device === device);
  }
}

const nowT = (): string => String(Math.floor(Date.now() / 1000));
