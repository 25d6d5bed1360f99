import type {
  ScanDriver,
  ScanEvent,
  ScanOpenOptions,
  ScanNumberLookup,
  ScanOutgoing,
  ScanPairingCode,
  ScanPresence,
  ScanReadKey,
  ScanSocket,
} from '../../src/modules/chat/driver/scan-driver.port.js';

/** Creds as the Baileys adapter serialises them (BufferJSON): opaque to everything but the driver. */
const buffer = (text: string): { type: 'Buffer'; data: string } => ({ type: 'Buffer', data: Buffer.from(text).toString('base64') });

/**
 * A `ScanDriver` that behaves like Baileys 7 on the events our port carries, driven by the test:
 * a socket without a linked identity in its creds shows a QR code (the rc14 `wa.me` format); a
 * "scan" writes creds with `me`, reports the pairing and closes with 515 like the real pairing; a socket whose creds
 * have `me` logs in (`open`). Creds go through the bound auth storage, as the real driver's do.
 */
export class FakeScanDriver implements ScanDriver {
  readonly sockets: FakeScanSocket[] = [];
  /** Workspaces whose next `open()` rejects with this message. */
  readonly failNextOpen = new Map<string, string>();
  /** Workspaces whose new sockets stay silent (still connecting) until the test calls `start()`. */
  readonly manualStart = new Set<string>();

  async open(options: ScanOpenOptions): Promise<ScanSocket> {
    const failure = this.failNextOpen.get(options.workspaceId);
    if (failure !== undefined) {
      this.failNextOpen.delete(options.workspaceId);
      throw new Error(failure);
    }
    const socket = new FakeScanSocket(options, this.sockets.filter((s) => s.workspaceId === options.workspaceId).length + 1);
    this.sockets.push(socket);
    if (!this.manualStart.has(options.workspaceId)) setImmediate(() => void socket.start());
    return socket;
  }

  downloadMedia(): Promise<Buffer> {
    return Promise.reject(new Error('no media in the fake driver'));
  }

  /** Sockets of a workspace, oldest first. */
  of(workspaceId: string): FakeScanSocket[] {
    return this.sockets.filter((socket) => socket.workspaceId === workspaceId);
  }

  /** The newest socket of a workspace. */
  latest(workspaceId: string): FakeScanSocket | undefined {
    return this.of(workspaceId).at(-1);
  }
}

export class FakeScanSocket implements ScanSocket {
  closedByService = false;
  loggedOut = false;
  ended = false;
  readonly openedAt = Date.now();
  /** When the service closed it (`close()`), if it did. */
  closedAt: number | undefined;
  readonly sent: { jid: string; outgoing: ScanOutgoing }[] = [];
  readonly reads: ScanReadKey[][] = [];
  /** Every event this socket handed to the service. */
  readonly events: ScanEvent[] = [];
  /** The numbers pairing codes were asked for on this socket, in order. */
  readonly pairingCodes: string[] = [];
  /** Chat states the service showed, in order. */
  readonly presences: { jid: string; state: ScanPresence }[] = [];
  /** Every number check asked of this socket (the phones of each call). */
  readonly lookups: string[][] = [];
  /** Numbers that are not on WhatsApp for this socket (every other number is). */
  readonly unknownNumbers = new Set<string>();
  /** Thrown by the next number checks (e.g. ScanLookupTimeoutError: WhatsApp did not answer). */
  lookupFailure: Error | null = null;
  private qrs = 0;

  constructor(
    readonly options: ScanOpenOptions,
    readonly attempt: number,
  ) {}

  get workspaceId(): string {
    return this.options.workspaceId;
  }

  async start(): Promise<void> {
    if (this.ended) return;
    const raw = await this.options.auth.readCreds();
    const creds = raw ? (JSON.parse(raw) as { me?: { id: string; lid?: string; name?: string } }) : null;
    if (creds?.me) {
      this.emit({ type: 'open', identity: { jid: creds.me.id, lid: creds.me.lid ?? null, name: creds.me.name ?? null } });
      return;
    }
    // A new device: Baileys writes its fresh keys first, then shows the server's first ref.
    if (!raw) await this.options.auth.writeCreds(JSON.stringify({ noiseKey: buffer('noise'), registered: false }));
    this.rotateQr();
  }

  /** The next QR code (the server's next ref), valid until `expiresAt` when given. */
  rotateQr(expiresAt?: Date): string {
    this.qrs += 1;
    const code = `https://wa.me/settings/linked_devices#2@ref-${this.attempt}-${this.qrs},bm9pc2U=,aWRlbnRpdHk=,YWR2,1`;
    this.emit(expiresAt ? { type: 'qr', code, expiresAt } : { type: 'qr', code });
    return code;
  }

  /**
   * The phone scans the code: the pairing writes creds with `me` (pair-success, `paired`), then the
   * server asks for a restart (515); with `restart: false` the test sends that 515 itself later.
   */
  async scan(phone = '4915123456789', device = 12, options: { restart?: boolean } = {}): Promise<void> {
    const me = { id: `${phone}:${device}@s.whatsapp.net`, lid: `98765${device}:${device}@lid`, name: 'Phone' };
    await this.options.auth.writeCreds(JSON.stringify({ noiseKey: buffer('noise'), registered: true, me }));
    this.emit({ type: 'paired', identity: { jid: me.id, lid: me.lid, name: null } });
    if (options.restart !== false) this.closeWith(515, 'Stream Errored (restart required)');
  }

  /** The server (or the network) ends the socket with a close code. */
  closeWith(code: number, reason: string, flags: { qrExpired?: boolean; authFailure?: boolean; removed?: boolean } = {}): void {
    this.emit({
      type: 'closed',
      code,
      reason,
      qrExpired: flags.qrExpired ?? false,
      authFailure: flags.authFailure ?? false,
      ...(flags.removed ? { removed: true as const } : {}),
    });
    this.ended = true;
  }

  /** Any event, exactly as the adapter would hand it over. */
  emit(event: ScanEvent): void {
    if (this.ended) return;
    this.events.push(event);
    this.options.listener(event);
  }

  /** As the real driver: a code per request (no more QR codes from then on); the test then calls `scan` as the phone entering it. */
  requestPairingCode(phone: string): Promise<ScanPairingCode> {
    if (this.ended) return Promise.reject(new Error('Connection Closed'));
    this.pairingCodes.push(phone);
    return Promise.resolve({ code: `CODE-${String(this.pairingCodes.length).padStart(4, '0')}`, expiresAt: new Date(Date.now() + 160_000) });
  }

  send(jid: string, outgoing: ScanOutgoing): Promise<{ externalId: string }> {
    if (this.ended) return Promise.reject(new Error('Connection Closed'));
    this.sent.push({ jid, outgoing });
    return Promise.resolve({ externalId: `3EB0FAKE${this.sent.length}` });
  }

  markRead(keys: readonly ScanReadKey[]): Promise<void> {
    this.reads.push([...keys]);
    return Promise.resolve();
  }

  presence(jid: string, state: ScanPresence): Promise<void> {
    if (this.ended) return Promise.reject(new Error('Connection Closed'));
    this.presences.push({ jid, state });
    return Promise.resolve();
  }

  lookup(phones: readonly string[]): Promise<ScanNumberLookup[]> {
    if (this.ended) return Promise.reject(new Error('Connection Closed'));
    this.lookups.push([...phones]);
    if (this.lookupFailure) return Promise.reject(this.lookupFailure);
    return Promise.resolve(
      phones.map((phone) => (this.unknownNumbers.has(phone) ? { phone, exists: false, jid: null } : { phone, exists: true, jid: `${phone}@s.whatsapp.net` })),
    );
  }

  logout(): Promise<void> {
    this.loggedOut = true;
    setImmediate(() => this.closeWith(401, 'Intentional Logout'));
    return Promise.resolve();
  }

  close(): void {
    this.closedByService = true;
    this.closedAt ??= Date.now();
    // Baileys reports its own end as a close (428) too; the service must not take it for a failure.
    setImmediate(() => this.closeWith(428, 'Connection Terminated'));
  }
}
