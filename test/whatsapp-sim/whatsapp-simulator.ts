// A loopback WhatsApp server for tests: real Baileys clients connect to `sim.url` (the service's
// WA_WEBSOCKET_URL) and go through QR pairing, login, Signal-encrypted messages and close codes.
// This class is the control API; tests drive "phones" (linked accounts) and "contacts" through it.
import { proto } from '@whiskeysockets/baileys';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { DeviceConnection, type RestartAfter } from './device-connection.js';
import { historyMessage, type HistoryConversation, type HistoryOptions } from './history.js';
import { MediaHost } from './media-host.js';
import { mediaMessage, mediaTypeOf, type MediaInput } from './media-message.js';
import type { InboundMessage, LinkedDevice, SentMessage, SimGroup } from './sim-model.js';
import { newMessageId, nowT, type DeliverInput, type QrInfo, type SimPhone, type SimulatorOptions } from './simulator-core.js';
import { SimulatorLinking } from './simulator-linking.js';
import { deviceRemoved, streamError } from './stanzas.js';

export type { DeliverInput, QrInfo, SimEvents, SimPhone, SimulatorOptions } from './simulator-core.js';
export type { RestartAfter } from './device-connection.js';
export { WrongPairingCodeError } from './link-code.js';
export { PASSKEY_RP_ID, PasskeyRequiredError, type NotificationAck } from './passkey-gate.js';
export { PasskeyCeremonyError, type PasskeyCeremonyState, type PasskeyFailureReason, type PasskeyStep, type RegisteredPasskey } from './passkey-ceremony.js';
export { SIM_CA_FILE } from './media-host.js';
export type { HistoryOptions } from './history.js';
export type { ChatState } from './sim-model.js';
export type { MediaInput, SimMediaKind, SimWrapper } from './media-message.js';

export class WhatsAppSimulator extends SimulatorLinking {
  private constructor(options: SimulatorOptions) {
    super(options);
  }

  phone(number: string): SimPhone {
    return {
      number,
      scan: (qr) => this.scanQr(qr, number),
      deliverText: (input) => this.deliverText({ ...input, to: number }),
      deliverFromPhone: (input) => this.deliverFromPhone({ ...input, phone: number }),
      sent: () => this.sent(number),
      chatStates: () => this.chatStates(number),
      waitForLive: () => this.waitForLive(number),
      waitForOffline: () => this.waitForOffline(number),
      isOnline: () => this.isOnline(number),
      streamError: (code) => this.streamError(number, code),
      failure: (reason) => this.failure(number, reason),
      drop: () => this.dropConnection(number),
      silence: () => this.silence(number),
      unlink: () => this.unlink(number),
    };
  }

  static async start(options: SimulatorOptions = {}): Promise<WhatsAppSimulator> {
    const sim = new WhatsAppSimulator(options);
    sim.media = await MediaHost.start(options.host ?? '127.0.0.1');
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
    await this.media?.stop();
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
   * with the new linked device once the client has signed the pairing; the client then restarts
   * (515): at once, as WhatsApp does, or with `restartAfter` after that many ms or once that
   * promise settles, so a test can look at the client between its pairing and its login. A gated
   * account (`gateAccount`) gets WhatsApp's passkey check instead: `PasskeyRequiredError`, or with a
   * registered passkey the ceremony (resolves once it paired, else `PasskeyCeremonyError`).
   */
  async scanQr(qr: string, phone: string, options: { restartAfter?: RestartAfter } = {}): Promise<LinkedDevice> {
    const fields = qr.slice(qr.indexOf('#') + 1).split(',');
    if (fields.length < 4) throw new Error(`not a WhatsApp pairing QR: ${qr}`);
    const [ref, , , advSecret] = fields;
    const conn = [...this.connections].find((c) => c.open && c.registration?.refs.includes(ref));
    if (!conn) throw new Error(`no connected client shows the QR ref ${ref}`);
    if (this.gated.has(phone)) return this.passkeyCheck(conn, phone, Buffer.from(advSecret, 'base64'), options.restartAfter);
    return conn.pair(this.world.account(phone), Buffer.from(advSecret, 'base64'), options.restartAfter);
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
   * A contact sends a file (an image, a document, a video, audio or a voice note, a sticker): the
   * file is encrypted with a fresh media key and put on the media host, and the message points at
   * it (`url`, `directPath`), as WhatsApp's do.
   */
  async deliverMedia(input: DeliverInput & MediaInput): Promise<string> {
    return this.deliver(input, mediaMessage(this.media, input), 'media', mediaTypeOf(input));
  }

  /**
   * A contact sends any message content as given (a reaction, a revoke, an edit, a location, …);
   * `mediaType` is the `<enc mediatype>` WhatsApp sets for media. Returns its id.
   */
  async deliverMessage(input: DeliverInput & { message: proto.IMessage; mediaType?: string }): Promise<string> {
    return this.deliver(input, input.message, input.mediaType ? 'media' : 'text', input.mediaType);
  }

  /**
   * A text typed on the phone itself in the chat with `chat` (a jid, or a contact's digits): its
   * companions get it from the phone (device 0) as a `deviceSentMessage`, as WhatsApp's
   * multi-device does. Returns its id.
   */
  async deliverFromPhone(input: { phone: string; chat: string; text: string; id?: string }): Promise<string> {
    const chat = input.chat.includes('@') ? input.chat : this.world.contact(input.chat).pnJid;
    const message = { deviceSentMessage: { destinationJid: chat, message: { conversation: input.text } } };
    const msg: InboundMessage = { ...this.fromPhone(message), recipient: chat, ...(input.id ? { id: input.id } : {}) };
    this.messages.set(msg.id, { input: msg, to: input.phone });
    const devices = this.devicesOf(input.phone);
    if (!devices.length) throw new Error(`no device is linked to ${input.phone}`);
    for (const device of devices) await this.push(device, msg);
    return msg.id;
  }

  /** Sends a message already delivered once again, with the same id (freshly encrypted, as a retry would be). */
  async redeliver(id: string): Promise<void> {
    const known = this.messages.get(id);
    if (!known) throw new Error(`unknown message ${id}`);
    for (const device of this.devicesOf(known.to)) await this.push(device, known.input);
  }

  /**
   * Contact `phone` starts its Signal sessions over (a reset session, or with `newIdentity` a
   * reinstalled WhatsApp): its next message to each device is a pkmsg from a fresh pre-key bundle.
   */
  rekeyContact(phone: string, options: { newIdentity?: boolean } = {}): void {
    this.world.contact(phone).peer.reset(options);
  }

  /** Resolves when a linked device of `phone` has acknowledged (receipted) message `id`. */
  async waitForAck(id: string, phone?: string): Promise<void> {
    const acked = (device: LinkedDevice, ackedId: string): boolean => ackedId === id && (!phone || device.account.phone === phone);
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

  /**
   * Pushes a history-sync batch from the phone to its linked devices: RECENT unless told, with the
   * phone's `progress` of the initial sync when given (100 on its last batch).
   */
  async pushHistory(phone: string, conversations: HistoryConversation[], options: HistoryOptions = {}): Promise<string> {
    const syncType = options.syncType ?? proto.HistorySync.HistorySyncType.RECENT;
    const message = historyMessage(this.world, conversations, syncType, options.progress, options.chunkOrder);
    const input = this.fromPhone(message);
    this.messages.set(input.id, { input, to: phone });
    for (const device of this.devicesOf(phone)) await this.push(device, input);
    return input.id;
  }

  /**
   * A group chat of account `to` with these contacts (phone numbers); `deliverText({group})` also
   * creates one on first use, with the writer as member. Its metadata is what a linked device gets
   * when it sends to the group; WhatsApp's groups are LID-addressed, hence the default.
   */
  group(input: { jid: string; to: string; subject?: string; members?: string[]; addressingMode?: 'lid' | 'pn' }): SimGroup {
    const group = this.world.group(input.jid, input.subject, input.addressingMode);
    group.accounts.add(this.world.account(input.to));
    for (const phone of input.members ?? []) group.contacts.add(this.world.contact(phone));
    return group;
  }

  /**
   * The initial history sync a new device of `phone` gets at its first login: the bootstrap batch
   * with these conversations (empty by default), then a last, empty batch at 100 %. With `lastBatch: false` the phone stops after the bootstrap batch (its sync still running):
   * the test then pushes the rest with `pushHistory(…, {progress})`.
   */
  setInitialHistory(phone: string, conversations: HistoryConversation[], options: { lastBatch?: boolean } = {}): void {
    this.historyAtLink.set(phone, { conversations, lastBatch: options.lastBatch ?? true });
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

  /** The contact's receipts for a message a device sent (in a group: its first member's), delivered, then read. */
  sendReceipt(id: string, type: 'delivered' | 'read' | 'played'): void {
    const sent = this.sentLog.find((m) => m.id === id);
    if (!sent) throw new Error(`no device sent a message ${id}`);
    const attrs: Record<string, string> = { id, from: sent.to, t: nowT() };
    const group = sent.group ? this.world.groups.get(sent.group) : undefined;
    const member = group ? [...group.contacts][0] : undefined;
    if (group && member) attrs.participant = group.addressingMode === 'lid' ? member.lidJid : member.pnJid;
    // `played`: a voice note, audio or video was played (WhatsApp sends it after `read`).
    if (type !== 'delivered') attrs.type = type;
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

  /**
   * The phone removes its devices in Linked devices: connected ones get WhatsApp's
   * `<stream:error code="401"><conflict type="device_removed"/>` now, the others a
   * `<failure reason="401">` at their next login.
   */
  unlink(phone: string): void {
    for (const device of this.devicesOf(phone)) device.removed = true;
    for (const conn of this.connectionsOf(phone)) conn.sendAndClose(deviceRemoved());
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
  // ---- internals -----------------------------------------------------------------------------

  private async deliver(input: DeliverInput, message: proto.IMessage, type: InboundMessage['type'], mediaType?: string): Promise<string> {
    const contact = this.world.contact(input.from, input.name);
    if (input.group) this.group({ jid: input.group, to: input.to }).contacts.add(contact);
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
}
