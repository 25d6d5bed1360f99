// End-to-end support: the whole app with the REAL Baileys driver, pointed at the loopback
// WhatsApp simulator (no fake driver anywhere), plus the few requests every e2e test makes.
import type supertest from 'supertest';
import { SCAN_AUTH_STORAGE, type ScanAuthStorageFactory } from '../../src/modules/chat/driver/scan-driver.port.js';
import { chat, eventually, FAST_CHAT_ENV } from '../chat/chat-support.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-env.js';
import { SIM_CA_FILE, type WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

export { chat, eventually };

/** A workspace as the tests use it: the owner's session (connect/disconnect) and a write key (the rest). */
export interface E2eWorkspace {
  workspaceId: string;
  owner: { cookie: string; workspaceId: string };
  key: string;
}

/**
 * The app on the simulator. Real sockets reconnect against a loopback server in milliseconds, so
 * the chat tests' fast timings apply; the lease TTL stays 10 s (a loaded machine's pauses must
 * not expire a lease mid-test). The simulator's media host is trusted through its test CA, and
 * allowed although it is on 127.0.0.1 (ALLOW_PRIVATE_MEDIA_URLS).
 */
export function createE2eApp(sim: WhatsAppSimulator, options: TestAppOptions = {}): Promise<TestApp> {
  return createTestApp({
    ...options,
    env: { ...FAST_CHAT_ENV, WA_WEBSOCKET_URL: sim.url, WA_MEDIA_CA_FILE: SIM_CA_FILE, ALLOW_PRIVATE_MEDIA_URLS: 'true', ...options.env },
  });
}

export async function newWorkspace(t: TestApp): Promise<E2eWorkspace> {
  const created = await t.factories.workspaceWithOwner();
  return { workspaceId: created.workspace.id, owner: { cookie: created.owner.cookie, workspaceId: created.workspace.id }, key: created.key };
}

export type Json = Record<string, unknown>;

export async function status(t: TestApp, ws: E2eWorkspace): Promise<Json> {
  return (await chat(t, { key: ws.key }, 'get', '/api/chat/status')).body as Json;
}

/**
 * The status' `limits` of a number that has sent nothing yet, under the test environment's caps
 * (test/support/test-app.ts sets both to 100000).
 */
export const NOTHING_SENT_LIMITS = {
  first_contacts: { used: 0, cap: 100_000, resets_at: null },
  unanswered: { cap: 100_000, chats_at_cap: 0 },
  queue: { depth: 0, oldest_queued_at: null },
};

/** Polls the status endpoint until `check` holds; answers that status. */
export function statusWhen(t: TestApp, ws: E2eWorkspace, what: string, check: (s: Json) => boolean, timeoutMs = 20_000): Promise<Json> {
  return eventually(
    what,
    async () => {
      const s = await status(t, ws);
      return check(s) ? s : undefined;
    },
    timeoutMs,
  );
}

/** The QR code the app serves, once one is pending. */
export function pendingQr(t: TestApp, ws: E2eWorkspace): Promise<Json & { code: string; image: string }> {
  return eventually(
    'a pending QR code',
    async () => {
      const body = (await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body as Json;
      return body.pending === true && typeof body.code === 'string' ? (body as Json & { code: string; image: string }) : undefined;
    },
    20_000,
  );
}

/** Connect → QR → the phone scans → connected. Answers the final status. */
export async function link(t: TestApp, sim: WhatsAppSimulator, ws: E2eWorkspace, phone: string): Promise<Json> {
  const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
  if (res.status !== 200) throw new Error(`connect answered ${res.status} ${JSON.stringify(res.body)}`);
  const qr = await pendingQr(t, ws);
  await sim.scanQr(qr.code, phone);
  await sim.waitForLive(phone);
  return statusWhen(t, ws, 'the linked session', (s) => s.connected === true);
}

export function api(t: TestApp, ws: E2eWorkspace, method: 'get' | 'post', path: string, body?: object): supertest.Test {
  const request = t.http()[method](path).set('Authorization', `Bearer ${ws.key}`);
  return body ? request.send(body) : request;
}

export async function conversations(t: TestApp, ws: E2eWorkspace): Promise<Json[]> {
  const res = await api(t, ws, 'get', '/api/conversations');
  if (res.status !== 200) throw new Error(`conversations answered ${res.status}`);
  return res.body as Json[];
}

export async function messagesOf(t: TestApp, ws: E2eWorkspace, conversationId: string): Promise<Json[]> {
  const res = await api(t, ws, 'get', `/api/conversations/${conversationId}/messages?limit=100`);
  if (res.status !== 200) throw new Error(`messages answered ${res.status}`);
  return (res.body as { messages: Json[] }).messages;
}

/** Every message of the workspace, across its conversations (newest first per conversation). */
export async function allMessages(t: TestApp, ws: E2eWorkspace): Promise<Json[]> {
  const all: Json[] = [];
  for (const c of await conversations(t, ws)) all.push(...(await messagesOf(t, ws, String(c.id))));
  return all;
}

/** Polls until the workspace has a message with that channel id; answers it. */
export function messageWhen(t: TestApp, ws: E2eWorkspace, chatMessageId: string, check: (m: Json) => boolean = () => true, timeoutMs = 20_000): Promise<Json> {
  return eventually(
    `message ${chatMessageId}`,
    async () => {
      const found = (await allMessages(t, ws)).find((m) => m.chat_message_id === chatMessageId);
      return found && check(found) ? found : undefined;
    },
    timeoutMs,
  );
}

/**
 * Scan sends go through the number's outbound queue: the 201 shows the message `pending`, without
 * a channel id. Polls the conversation until the message left the queue and answers it as the
 * inbox then shows it (its final status and `chat_message_id`).
 */
export function sentMessage(t: TestApp, ws: E2eWorkspace, conversationId: string, messageId: string, timeoutMs = 20_000): Promise<Json> {
  return eventually(
    `message ${messageId} out of the queue`,
    async () => {
      const found = (await messagesOf(t, ws, conversationId)).find((m) => m.id === messageId);
      return found && found.status !== 'pending' ? found : undefined;
    },
    timeoutMs,
  );
}

/** Rows of the workspace's auth state (creds and Signal keys) in Postgres. */
export async function authRows(t: TestApp, workspaceId: string): Promise<number> {
  const rows: { n: string }[] = await t.dataSource.query('SELECT count(*) AS n FROM scan_auth_keys WHERE workspace_id = $1', [workspaceId]);
  return Number(rows[0]!.n);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the first login's app-state sync is done and saved: Baileys stores
 * `accountSyncCounter > 0` then. A socket reopened before that (a restart within a second of
 * linking) waits 20 s for a history notification before it hands over any message; Baileys'
 * behaviour, not the service's, so tests that restart let the link settle first.
 */
export async function linkSettled(t: TestApp, workspaceId: string): Promise<void> {
  const storage = t.app.get<ScanAuthStorageFactory>(SCAN_AUTH_STORAGE).forWorkspace(workspaceId);
  await eventually(
    'the link settled (accountSyncCounter saved)',
    async () => {
      const raw = await storage.readCreds();
      return raw !== null && Number((JSON.parse(raw) as { accountSyncCounter?: number }).accountSyncCounter ?? 0) > 0;
    },
    30_000,
  );
}

/** Logins and QR refs the simulator has seen for one number, counted from now on. */
export interface SimCounts {
  logins: number;
  qrs: number;
}

export function countConnections(sim: WhatsAppSimulator, phone: string): SimCounts {
  const counts: SimCounts = { logins: 0, qrs: 0 };
  sim.events.on('login', (device) => {
    if (device.account.phone === phone) counts.logins += 1;
  });
  sim.events.on('refs', () => (counts.qrs += 1));
  return counts;
}

/** A contact who writes `<label> 1`, `<label> 2`, … every `everyMs` until `stop()` (which answers the ids). */
export function keepWriting(sim: WhatsAppSimulator, to: string, from: string, label: string, everyMs = 100): { stop: () => Promise<string[]> } {
  const ids: string[] = [];
  let writing = true;
  const writer = (async () => {
    for (let n = 1; writing; n += 1) {
      ids.push(await sim.deliverText({ to, from, text: `${label} ${n}` }));
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      writing = false;
      await writer;
      return ids;
    },
  };
}

/** Every message `keepWriting` wrote is stored, each exactly once. */
export async function expectEachOnce(t: TestApp, ws: E2eWorkspace, ids: string[], label: string): Promise<void> {
  for (const id of ids) await messageWhen(t, ws, id);
  const conversationId = String((await messageWhen(t, ws, ids[0]!)).conversation_id);
  const texts = (await messagesOf(t, ws, conversationId)).map((m) => m.content);
  const written = ids.map((_, i) => `${label} ${i + 1}`);
  const once = texts.length === written.length && new Set(texts).size === texts.length && written.every((text) => texts.includes(text));
  if (!once) throw new Error(`expected each of ${ids.length} messages once, got ${JSON.stringify(texts)}`);
}

/**
 * The environment of a `ROLE=worker` process of the built service beside the in-process app `t`
 * (the same database, Redis prefix and key), linked to `sim`, from an empty directory's point of
 * view: nothing of the developer's environment but PATH. `extra` adds or overrides variables.
 */
export function workerProcessEnv(t: TestApp, sim: WhatsAppSimulator, extra: Record<string, string>): Record<string, string> {
  const { config } = t;
  return {
    PATH: process.env.PATH ?? '',
    ...FAST_CHAT_ENV,
    NODE_ENV: 'test',
    ROLE: 'worker',
    DATABASE_URL: config.databaseUrl,
    DB_MIGRATE_ON_START: 'false',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: config.redisPrefix,
    ...(config.usingDevelopmentKey ? {} : { ENCRYPTION_KEY: config.encryptionKey.toString('base64') }),
    WA_WEBSOCKET_URL: sim.url,
    WA_MEDIA_CA_FILE: SIM_CA_FILE,
    ...extra,
  };
}
