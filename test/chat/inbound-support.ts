import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type {
  ScanDriver,
  ScanMessage,
  ScanNumberLookup,
  ScanOpenOptions,
  ScanOutgoing,
  ScanReadKey,
  ScanSocket,
} from '../../src/modules/chat/driver/scan-driver.port.js';
import { SCAN_DRIVER } from '../../src/modules/chat/driver/scan-driver.port.js';
import { ScanEventHandler, ScanNotConnectedError, ScanSessions, type ScanSessionState } from '../../src/modules/chat/session/scan-sessions.port.js';
import { InboxModule } from '../../src/modules/inbox/inbox.module.js';
import { IngestHooks, type IngestedMessage, type PendingMessage } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { messageId, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

export interface SendCall {
  workspaceId: string;
  jid: string;
  outgoing: ScanOutgoing;
}

/** `ScanSessions` without sockets: records every call, answers ids, can be disconnected or made to fail. */
export class RecordingScanSessions extends ScanSessions {
  readonly sends: SendCall[] = [];
  /** Every call of send, also the ones that threw. */
  readonly tries: SendCall[] = [];
  readonly reads: { workspaceId: string; keys: readonly ScanReadKey[] }[] = [];
  readonly connected = new Set<string>();
  /** Thrown by the next sends (e.g. ScanNotConnectedError: the socket dropped after the check). */
  failure: Error | null = null;
  /** Runs after a send is recorded, before it resolves (e.g. to deliver the channel's echo first). */
  beforeResolve: ((call: SendCall, externalId: string) => Promise<void>) | null = null;
  private counter = 0;

  state(workspaceId: string): Promise<ScanSessionState> {
    const connected = this.connected.has(workspaceId);
    return Promise.resolve({ connected, logged_in: connected, qr_pending: false });
  }

  isConnected(workspaceId: string): Promise<boolean> {
    return Promise.resolve(this.connected.has(workspaceId));
  }

  async send(workspaceId: string, jid: string, outgoing: ScanOutgoing): Promise<{ externalId: string }> {
    const call = { workspaceId, jid, outgoing };
    this.tries.push(call);
    if (this.failure) throw this.failure;
    if (!this.connected.has(workspaceId)) throw new ScanNotConnectedError();
    this.sends.push(call);
    // Like the driver: WhatsApp's id is the one the send asked for.
    const externalId = ('messageId' in outgoing ? outgoing.messageId : undefined) ?? `3EB0${(++this.counter).toString(16).toUpperCase().padStart(16, '0')}`;
    if (this.beforeResolve) await this.beforeResolve(call, externalId);
    return { externalId };
  }

  async markRead(workspaceId: string, keys: readonly ScanReadKey[]): Promise<void> {
    if (!this.connected.has(workspaceId)) throw new ScanNotConnectedError();
    this.reads.push({ workspaceId, keys });
  }

  async presence(workspaceId: string): Promise<void> {
    if (!this.connected.has(workspaceId)) throw new ScanNotConnectedError();
  }

  /** Every number is on WhatsApp here. */
  async lookup(workspaceId: string, phones: readonly string[]): Promise<ScanNumberLookup[]> {
    if (!this.connected.has(workspaceId)) throw new ScanNotConnectedError();
    return phones.map((phone) => ({ phone, exists: true, jid: `${phone}@s.whatsapp.net` }));
  }
}

/** A driver that only downloads: media bytes by reference, set by the test. */
export class FakeMediaDriver implements ScanDriver {
  readonly media = new Map<string, Buffer>();
  readonly downloads: string[] = [];
  /** While set, downloads wait for it (a slow media host); `inFlight` counts those waiting. */
  hold: Promise<void> | undefined;
  inFlight = 0;

  open(_options: ScanOpenOptions): Promise<ScanSocket> {
    return Promise.reject(new Error('the inbound tests open no socket'));
  }

  async downloadMedia(ref: string): Promise<Buffer> {
    this.downloads.push(ref);
    if (this.hold) {
      this.inFlight += 1;
      await this.hold.finally(() => (this.inFlight -= 1));
    }
    const bytes = this.media.get(ref);
    if (!bytes) throw new Error(`no media for ${ref}`);
    return bytes;
  }
}

/** Records every message the ingest hooks (webhooks, automations) would see. */
@Injectable()
export class RecordingIngestHook implements OnModuleInit {
  readonly inTransaction: PendingMessage[] = [];
  readonly afterCommit: IngestedMessage[] = [];

  constructor(private readonly hooks: IngestHooks) {}

  onModuleInit(): void {
    this.hooks.register({
      inTransaction: async (event) => void this.inTransaction.push(event),
      afterCommit: async (event) => void this.afterCommit.push(event),
    });
  }

  sawMessage(externalId: string): boolean {
    return [...this.inTransaction, ...this.afterCommit].some((event) => event.message.externalId === externalId);
  }
}

export interface InboundTestApp {
  t: TestApp;
  sessions: RecordingScanSessions;
  driver: FakeMediaDriver;
  hook: RecordingIngestHook;
  handler: ScanEventHandler;
  mediaDir: string;
  close(): Promise<void>;
}

/** The whole app with the recording sessions, the media driver, a recording hook and its own MEDIA_DIR. */
export async function createInboundTestApp(env: Record<string, string> = {}): Promise<InboundTestApp> {
  const mediaDir = await mkdtemp(join(tmpdir(), 'inbox-media-'));
  const sessions = new RecordingScanSessions();
  const driver = new FakeMediaDriver();
  const t = await createTestApp({
    env: { MEDIA_DIR: mediaDir, ...env },
    imports: [InboxModule],
    providers: [RecordingIngestHook],
    customize: (builder) => builder.overrideProvider(ScanSessions).useValue(sessions).overrideProvider(SCAN_DRIVER).useValue(driver),
  });
  return {
    t,
    sessions,
    driver,
    hook: t.app.get(RecordingIngestHook),
    handler: t.app.get(ScanEventHandler),
    mediaDir,
    close: async () => {
      await t.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/**
 * A message as the Baileys adapter maps `messages.upsert` / history: by default an inbound text
 * in a one-to-one chat addressed by phone number.
 */
export function scanMessage(overrides: Partial<ScanMessage> & { phone?: string } = {}): ScanMessage {
  const { phone = randomPhone(), ...rest } = overrides;
  const jid = `${phone}@s.whatsapp.net`;
  return {
    externalId: messageId(),
    chatJid: jid,
    chatJidAlt: null,
    isGroup: false,
    fromMe: false,
    senderJid: jid,
    senderJidAlt: null,
    senderName: 'Ada',
    type: 'text',
    content: `hello ${Math.random().toString(36).slice(2, 8)}`,
    media: null,
    timestamp: new Date(Math.floor(Date.now() / 1000) * 1000),
    ...rest,
  };
}

/** Until `check` answers something truthy (jobs run in the app's own worker); a bound, not an assertion. */
export async function eventually<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The stored message with this channel id, every column. */
export async function storedMessage(db: DataSource, workspaceId: string, externalId: string): Promise<Record<string, unknown> | undefined> {
  const rows: Record<string, unknown>[] = await db.query(`SELECT * FROM messages WHERE workspace_id = $1 AND external_id = $2`, [workspaceId, externalId]);
  return rows[0];
}
