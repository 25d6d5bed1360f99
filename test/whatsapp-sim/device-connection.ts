// One WebSocket from a Baileys client: Noise handshake, then either registration (QR refs, pairing,
// 515) or login (success, pre-key upload, queued messages, empty history sync), then the stanzas
// a linked device exchanges with the server. The simulator (the host) owns the world and the
// control API; this class only speaks the protocol.
import { getBinaryNodeChild, proto, type BinaryNode, type KeyPair } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { NoiseResponder } from './noise-responder.js';
import { answerIq } from './iq-handlers.js';
import type { Account, ChatState, InboundMessage, LinkedDevice, SentMessage } from './sim-model.js';
import type { DeviceBundle } from './signal-peer.js';
import { children, iqError, iqResult, nowSeconds, pairDevice, pairSuccess, readChatState, registrationBundle, streamError } from './stanzas.js';
import { type CompanionHello, helloAnswer, linkCodeStage, PhoneCodeEntry, readCompanionHello } from './link-code.js';
import { crscContinuation, type NotificationAck, passkeyPrologueRequest, PasskeyRequiredError } from './passkey-gate.js';
import { answerCeremonyIq, type PasskeyCeremony } from './passkey-ceremony.js';
import { messageStanza } from './inbound.js';
import { readDeviceMessage, type ReadContext } from './device-sent.js';

export interface ConnectionHost extends ReadContext {
  readonly qrRefs: number;
  readonly serverStatic: KeyPair;
  onRefs(conn: DeviceConnection): void;
  onLogin(conn: DeviceConnection, device: LinkedDevice): void;
  onLive(conn: DeviceConnection, device: LinkedDevice): Promise<void>;
  onAcked(device: LinkedDevice, id: string): void;
  /** A client acknowledged a notification (also before it is a linked device). */
  onNotificationAck(conn: DeviceConnection, ack: NotificationAck): void;
  /** A registering client asked for a pairing code (`companion_hello`). */
  onPairingCodeRequested(conn: DeviceConnection, hello: CompanionHello): void;
  onSent(device: LinkedDevice, sent: SentMessage): void;
  /** A linked device sent a typing indicator (composing, recording, paused). */
  onChatState(device: LinkedDevice, state: ChatState): void;
  onClosed(conn: DeviceConnection): void;
}

type Phase = 'hello' | 'finish' | 'open' | 'closed';

/** When the server restarts a client it paired: after this many ms, or once the promise settles. */
export type RestartAfter = number | Promise<unknown>;

export class DeviceConnection {
  private phase: Phase = 'hello';
  private readonly noise: NoiseResponder;
  private work: Promise<void> = Promise.resolve();
  private readonly waiters = new Map<string, { resolve: (node: BinaryNode) => void; reject: (error: Error) => void }>();
  private tag = 0;
  /** Set during registration: what pairing needs from the client. */
  registration?: { bundle: DeviceBundle; refs: string[] };
  /** The client asked for a pairing code (its latest `companion_hello`). */
  codeHello?: CompanionHello;
  /** The phone entered a code: waiting for the client's `companion_finish`. */
  private codeFinish?: { resolve: (iq: BinaryNode) => void; reject: (error: Error) => void };
  /** The passkey ceremony WhatsApp runs with this client (passkey-ceremony.ts), once one began. */
  passkey?: PasskeyCeremony;
  /** The client's Noise static public key, from the handshake (its pairing request must name it). */
  clientStatic?: Buffer;
  /** Acknowledgements of notifications this connection's client sent, in order. */
  readonly notificationAcks: NotificationAck[] = [];
  device?: LinkedDevice;
  /** True once the device finished its login work and takes live deliveries. */
  live = false;
  /** A silent connection stays open but neither answers nor sends (the client's keepalive notices). */
  silent = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: ConnectionHost,
  ) {
    this.noise = new NoiseResponder(host.serverStatic);
    ws.on('message', (data: Buffer) => {
      if (this.silent) return;
      // Arrival time, before this frame waits behind earlier work (a slow media download, say).
      const at = Date.now();
      this.work = this.work.then(() => this.onData(data, at)).catch(() => this.close());
    });
    ws.on('close', () => {
      this.phase = 'closed';
      this.live = false;
      for (const waiter of this.waiters.values()) waiter.reject(new Error('the client closed the connection before answering'));
      this.waiters.clear();
      this.codeFinish?.reject(new Error('the client closed the connection before answering'));
      this.codeFinish = undefined;
      this.passkey?.closed();
      this.host.onClosed(this);
    });
    ws.on('error', () => this.close());
  }

  get open(): boolean {
    return this.phase !== 'closed';
  }

  send(node: BinaryNode): void {
    if (this.phase === 'closed' || !this.noise.ready || this.silent) return;
    this.ws.send(this.noise.encodeNode(node));
  }

  close(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.live = false;
    this.ws.close();
  }

  /** Sends a stanza and closes, as the server does after stream errors and failures. */
  sendAndClose(node: BinaryNode): void {
    this.send(node);
    setTimeout(() => this.close(), 50);
  }

  nextId(): string {
    return `sim.${++this.tag}`;
  }

  /** Sends an iq and resolves with the device's answer. */
  request(node: BinaryNode): Promise<BinaryNode> {
    return new Promise((resolve, reject) => {
      this.waiters.set(node.attrs.id, { resolve, reject });
      this.send(node);
    });
  }

  /**
   * The phone scanned this connection's QR: link a new device to the account and restart (515).
   * The restart goes out once the client signed the pairing, or once `restartAfter` (a delay in
   * ms, or a promise) has passed: the client's state between pair-success and 515 can be observed.
   */
  async pair(account: Account, advSecret: Buffer, restartAfter?: RestartAfter): Promise<LinkedDevice> {
    if (!this.registration) throw new Error('this connection is not waiting for a QR scan');
    const device = account.link(this.registration.bundle);
    this.registration = undefined;
    let answer: BinaryNode;
    try {
      answer = await this.request(
        pairSuccess({
          id: this.nextId(),
          advSecret,
          deviceIdentityKey: device.bundle.identityKey,
          accountKey: account.accountKey,
          jid: device.jid,
          lid: device.lidJid,
          keyIndex: 1,
        }),
      );
    } catch (error) {
      // A client that rejects pair-success (wrong advSecret) never becomes a linked device.
      account.devices.delete(device.id);
      throw error;
    }
    if (!getBinaryNodeChild(answer, 'pair-device-sign')) throw new Error('the client did not sign the pairing');
    const restart = (): void => this.sendAndClose(streamError(515));
    if (restartAfter === undefined) restart();
    else if (typeof restartAfter === 'number') setTimeout(restart, restartAfter);
    else void restartAfter.then(restart, restart);
    return device;
  }

  /**
   * The account is gated behind WhatsApp's passkey check: instead of pair-success the client gets
   * `passkey_prologue_request`, then `crsc_continuation` (passkey-gate.ts); nothing is linked.
   */
  askPasskey(phone: string): never {
    if (!this.registration) throw new Error('this connection is not waiting to be linked');
    this.registration = undefined;
    this.send(passkeyPrologueRequest(this.nextId()));
    this.send(crscContinuation(this.nextId()));
    throw new PasskeyRequiredError(phone);
  }

  /**
   * The phone's person typed `code` (link-code.ts): the phone's half goes to the client, which
   * answers with `companion_finish`; a code that opens its key bundle pairs the client as a scan
   * does. A wrong code is refused (`WrongPairingCodeError`): the client's `companion_finish` gets
   * an error, and the code can be typed again. A gated account's phone sends its half without the
   * wrapped key, then WhatsApp's passkey check, whatever was typed: `PasskeyRequiredError`, or with
   * `ceremony` (the account has a passkey) the ceremony that function starts.
   */
  async enterCode(
    account: Account,
    code: string,
    options: { gated?: boolean; ceremony?: () => Promise<LinkedDevice>; restartAfter?: RestartAfter } = {},
  ): Promise<LinkedDevice> {
    const hello = this.codeHello;
    if (!this.registration || !hello) throw new Error('this connection does not wait for a pairing code');
    const entry = new PhoneCodeEntry(hello, code);
    if (options.gated) {
      // What gated accounts are reported to get (whatsmeow #1188, #1233): the notification without
      // the phone's wrapped key (Baileys rc14 throws "Invalid buffer" on it, and acks it), then the
      // passkey check.
      this.send(entry.keylessNotification(this.nextId()));
      return options.ceremony ? options.ceremony() : this.askPasskey(account.phone);
    }
    const finished = new Promise<BinaryNode>((resolve, reject) => (this.codeFinish = { resolve, reject }));
    this.send(await entry.notification(this.nextId()));
    const iq = await finished;
    let advSecret: Buffer;
    try {
      advSecret = entry.finish(iq);
    } catch (error) {
      this.send(iqError(iq.attrs.id, 401, 'not-authorized'));
      throw error;
    }
    this.send(iqResult(iq.attrs.id));
    return this.pair(account, advSecret, options.restartAfter);
  }

  expireRefs(): void {
    // A second pair-device with no refs makes Baileys end its QR loop at once (408, "QR refs attempts ended").
    this.send(pairDevice(this.nextId(), []));
  }

  async deliver(message: InboundMessage, offline: boolean): Promise<void> {
    if (!this.device) return;
    this.send(await messageStanza(this.device, message, offline));
  }

  private async onData(data: Buffer, at: number): Promise<void> {
    for (const frame of this.noise.push(data)) {
      if (this.phase === 'hello') {
        this.ws.send(this.noise.serverHello(frame));
        this.phase = 'finish';
      } else if (this.phase === 'finish') {
        const { payload, clientStatic } = this.noise.clientFinish(frame);
        this.clientStatic = clientStatic;
        this.phase = 'open';
        this.onClientPayload(payload);
      } else if (this.phase === 'open') {
        await this.onNode(await this.noise.decodeNode(frame), at);
      }
    }
  }

  private onClientPayload(payload: proto.ClientPayload): void {
    const pairing = payload.devicePairingData;
    if (pairing) {
      this.registration = {
        bundle: registrationBundle(pairing),
        refs: Array.from({ length: this.host.qrRefs }, () => randomBytes(16).toString('base64url')),
      };
      this.send(pairDevice(this.nextId(), this.registration.refs));
      this.host.onRefs(this);
      return;
    }
    const account = this.host.world.accounts.get(String(payload.username ?? ''));
    const device = account?.devices.get(payload.device ?? -1);
    if (!device || device.removed) {
      this.sendAndClose({ tag: 'failure', attrs: { reason: '401', location: 'sim' } });
      return;
    }
    this.device = device;
    this.host.onLogin(this, device);
    this.send({ tag: 'success', attrs: { t: nowSeconds(), lid: device.lidJid, props: '1', abprops: '1', location: 'sim' } });
  }

  private async onNode(node: BinaryNode, at: number): Promise<void> {
    if (process.env.SIM_DEBUG) console.log('sim recv', node.tag, JSON.stringify(node.attrs));
    const waiter = node.tag === 'iq' ? this.waiters.get(node.attrs.id) : undefined;
    if (waiter && (node.attrs.type === 'result' || node.attrs.type === 'error')) {
      this.waiters.delete(node.attrs.id);
      waiter.resolve(node);
      return;
    }
    const device = this.device;
    if (node.tag === 'ack' && node.attrs.class === 'notification') {
      const ack = { id: node.attrs.id, type: node.attrs.type, at: Date.now() };
      this.notificationAcks.push(ack);
      this.host.onNotificationAck(this, ack);
    }
    if (node.tag === 'iq' && answerCeremonyIq(this, node)) return;
    if (node.tag === 'iq' && this.registration && this.onLinkCode(node)) return;
    if (node.tag === 'iq') {
      const answer = answerIq(this.host, device, node);
      this.send(answer);
      if (device && node.attrs.xmlns === 'passive' && getBinaryNodeChild(node, 'active') && !this.live) {
        // Pre-keys are uploaded before this iq, so inbound messages can now be encrypted.
        this.live = true;
        void this.host.onLive(this, device).catch(() => this.close());
      }
      return;
    }
    if (!device) return;
    if (node.tag === 'receipt') {
      const ids = [node.attrs.id, ...children(getBinaryNodeChild(node, 'list')).map((item) => item.attrs.id)];
      for (const id of ids) if (id) this.host.onAcked(device, id);
    } else if (node.tag === 'ack' && node.attrs.class === 'message') {
      this.host.onAcked(device, node.attrs.id);
    } else if (node.tag === 'message') {
      await this.onDeviceMessage(device, node, at);
    } else if (node.tag === 'chatstate') {
      const state = readChatState(node);
      if (state) this.host.onChatState(device, { from: device.account.phone, to: node.attrs.to ?? '', state, at });
    }
  }

  /** The link-code stages of a registering client; true when the iq was one. */
  private onLinkCode(iq: BinaryNode): boolean {
    const stage = linkCodeStage(iq);
    if (stage === 'companion_hello') {
      const hello = readCompanionHello(iq);
      if (!hello) return false;
      this.codeHello = hello;
      this.send(helloAnswer(iq.attrs.id, hello));
      this.host.onPairingCodeRequested(this, hello);
      return true;
    }
    if (stage === 'companion_finish' && this.codeFinish) {
      const waiting = this.codeFinish;
      this.codeFinish = undefined;
      waiting.resolve(iq);
      return true;
    }
    return false;
  }

  private async onDeviceMessage(device: LinkedDevice, node: BinaryNode, at: number): Promise<void> {
    const sent = await readDeviceMessage(this.host, device, node, at);
    this.send({ tag: 'ack', attrs: { class: 'message', id: node.attrs.id, from: node.attrs.to, t: nowSeconds() } });
    if (sent) this.host.onSent(device, sent);
  }
}
