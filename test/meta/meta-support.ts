import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeGraphApi, postCallback, type CallbackResponse } from '../fakes/graph-api/index.js';
import { randomPhone } from '../support/inbox-factories.js';
import { eventually } from '../chat/inbound-support.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

export const APP_ID = '1234567890';
export const APP_SECRET = 'fake-app-secret-for-tests';
export const VERIFY_TOKEN = 'verify-me-please';
export const CONFIG_ID = '555000111';

export interface MetaTestApp {
  t: TestApp;
  graph: FakeGraphApi;
  /** The listening service, for the provider-side helpers (`postCallback`). */
  baseUrl: string;
  close: () => Promise<void>;
}

/** The whole app with the platform's Meta app configured, pointed at a fresh fake Graph API, listening on loopback. */
export async function createMetaTestApp(options: TestAppOptions & { env?: Record<string, string> } = {}): Promise<MetaTestApp> {
  const graph = await FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET });
  const mediaDir = await mkdtemp(join(tmpdir(), 'meta-media-'));
  const t = await createTestApp({
    ...options,
    env: {
      META_APP_ID: APP_ID,
      META_APP_SECRET: APP_SECRET,
      META_VERIFY_TOKEN: VERIFY_TOKEN,
      META_CONFIG_ID: CONFIG_ID,
      META_GRAPH_URL: graph.url,
      MEDIA_DIR: mediaDir,
      ...options.env,
    },
  });
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return {
    t,
    graph,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await t.close();
      await graph.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/** Graph-style numeric id. */
export const graphId = (): string =>
  `1${BigInt(`0x${randomBytes(7).toString('hex')}`)
    .toString()
    .padStart(14, '0')
    .slice(0, 14)}`;

export interface ConnectedWorkspace {
  workspaceId: string;
  cookie: string;
  key: string;
  phoneNumberId: string;
  wabaId: string;
  token: string;
  /** `X-Tenant-ID` + cookie headers of the owner. */
  owner: Record<string, string>;
}

/** A workspace whose owner connected a Cloud API number through `PUT /api/meta/settings` (checked by the fake). */
export async function connectedWorkspace(m: MetaTestApp, number: { wabaId?: string; phoneNumberId?: string } = {}): Promise<ConnectedWorkspace> {
  const { workspace, owner, key } = await m.t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
  const phoneNumberId = number.phoneNumberId ?? graphId();
  const wabaId = number.wabaId ?? graphId();
  const token = `EAAG${randomBytes(24).toString('hex')}`;
  m.graph.world.addNumber({ id: phoneNumberId, wabaId, displayPhoneNumber: `+1 555-${phoneNumberId.slice(-4)}`, verifiedName: 'Acme' }, token);
  const headers = { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id };
  const res = await m.t.http().put('/api/meta/settings').set(headers).send({ phone_number_id: phoneNumberId, waba_id: wabaId, access_token: token });
  if (res.status !== 200) throw new Error(`settings not saved: ${res.status} ${JSON.stringify(res.body)}`);
  return { workspaceId: workspace.id, cookie: owner.cookie, key, phoneNumberId, wabaId, token, owner: headers };
}

/** POSTs `payload` signed with the platform's app secret, as the provider does. */
export function deliver(m: MetaTestApp, payload: unknown, options: { signature?: string | null; appSecret?: string } = {}): Promise<CallbackResponse> {
  return postCallback(m.baseUrl, payload, { appSecret: options.appSecret ?? APP_SECRET, signature: options.signature });
}

export const newPhone = randomPhone;
export { eventually };

/** Headers of the signed-in owner of a new workspace (without a number). */
export async function ownerHeaders(m: MetaTestApp): Promise<Record<string, string>> {
  const { workspace, owner } = await m.t.factories.workspaceWithOwner();
  return { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id };
}

/** The meta messages of a workspace, oldest first. */
export async function metaMessages(
  t: TestApp,
  workspaceId: string,
): Promise<
  {
    id: string;
    external_id: string;
    direction: string;
    status: string;
    content: string;
    error: string | null;
    media_url: string;
    message_type: string;
    conversation_id: string;
  }[]
> {
  return t.dataSource.query(
    `SELECT id, external_id, direction, status, content, error, media_url, message_type, conversation_id FROM messages
      WHERE workspace_id = $1 AND channel = 'meta' ORDER BY timestamp, created_at`,
    [workspaceId],
  );
}

/** Whether every stored callback has been processed. */
export async function callbacksSettled(t: TestApp): Promise<boolean> {
  const rows: { n: number }[] = await t.dataSource.query(`SELECT count(*)::int AS n FROM meta_callbacks WHERE processed_at IS NULL`);
  return rows[0]!.n === 0;
}

/** Starts a conversation over the API (sent through the fake Graph API); answers the conversation and the provider's message id. */
export async function startConversation(
  m: MetaTestApp,
  w: ConnectedWorkspace,
  phone: string,
  body = 'Hello from the shop',
): Promise<{ conversationId: string; wamid: string }> {
  const res = await m.t.http().post('/api/conversations').set('Authorization', `Bearer ${w.key}`).send({ phone, body });
  if (res.status !== 201) throw new Error(`conversation not started: ${res.status} ${JSON.stringify(res.body)}`);
  return { conversationId: res.body.conversation.id as string, wamid: res.body.message.chat_message_id as string };
}

/** The status and error of one of our messages, by the provider's id. */
export async function messageState(t: TestApp, workspaceId: string, externalId: string): Promise<{ status: string; error: string | null } | undefined> {
  const rows: { status: string; error: string | null }[] = await t.dataSource.query(
    `SELECT status, error FROM messages WHERE workspace_id = $1 AND channel = 'meta' AND external_id = $2`,
    [workspaceId, externalId],
  );
  return rows[0];
}

/** Delivers a callback and waits until the service has processed every stored callback. */
export async function deliverAndSettle(m: MetaTestApp, payload: unknown): Promise<void> {
  const res = await deliver(m, payload);
  if (res.status !== 200) throw new Error(`callback refused: ${res.status} ${res.text}`);
  await eventually('the callback to be processed', () => callbacksSettled(m.t));
}

/** The app with loopback webhook endpoints allowed and quick retries, for the `meta.chat` tests. */
export const WEBHOOK_ENV = {
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
};

/** Adds a webhook of the workspace through the API (its owner in the Console); answers the workspace's signing secret. */
export async function addMetaWebhook(m: MetaTestApp, w: ConnectedWorkspace, url: string, events: string[] = ['meta.chat']): Promise<string> {
  const res = await m.t.http().post('/api/webhooks').set(w.owner).send({ url, events });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  return ((await m.t.http().get('/api/webhooks/secret').set(w.owner)).body as { secret: string }).secret;
}

/**
 * Every stored callback processed and every webhook delivery finished (delivered or failed). The
 * callbacks first: their deliveries are written with them, so none can appear after this says yes.
 */
export async function forwardingSettled(t: TestApp): Promise<boolean> {
  if (!(await callbacksSettled(t))) return false;
  const rows: { n: number }[] = await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'held')`);
  return rows[0]!.n === 0;
}

/** How many `meta.chat` events hold exactly these bytes (one per workspace forwarded to). */
export async function forwardedCopies(t: TestApp, bytes: Buffer): Promise<number> {
  const rows: { n: number }[] = await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_events WHERE event = 'meta.chat' AND body = $1`, [bytes]);
  return rows[0]!.n;
}
