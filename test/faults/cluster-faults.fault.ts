import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { callback, contact, FakeGraphApi, messagesChange, postCallback, textMessage } from '../fakes/graph-api/index.js';
import { Receiver } from '../webhooks/webhook-support.js';
import { AckLedger } from '../whatsapp-sim/ack-ledger.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { cleanupAll } from './support/cleanup.js';
import { type ContactsWriting, contactsWriting as writing } from './support/contacts-writing.js';
import { faultScenarios } from './support/scenario.js';
import { FaultCluster, type Workspace } from './support/cluster.js';

const APP_SECRET = 'fault-suite-meta-app-secret';
import { sleep, waitFor } from './support/ports.js';

/**
 * The fault-injection suite (issue 18): the built service as 2 api and 2 worker processes on a
 * private Postgres and Redis, with WhatsApp simulated on loopback. Each scenario breaks one thing
 * for real (kill -9, a stopped server, SIGTERM) while contacts keep writing, then checks what a
 * user would notice: sessions back without a QR code, every message stored exactly once and
 * delivered to the workspace's webhook, health telling the truth, in-flight work finished.
 */
describe('fault injection: 2 api + 2 worker processes', () => {
  let sim: WhatsAppSimulator;
  let cluster: FaultCluster;
  let alpha: Workspace;
  let beta: Workspace;
  let receiver: Receiver;
  let receiverPort: number;
  let graph: FakeGraphApi;
  let cloud: Workspace;
  const cloudNumber = { phoneNumberId: '109876543210987', wabaId: '102030405060708', token: `EAAG${randomBytes(24).toString('hex')}` };
  const { scenario, failed } = faultScenarios(120_000);

  /**
   * The provider posting signed callbacks (one text message each) to the api processes in turn,
   * retrying every refused one as Meta does, until stopped; answers the message ids (wamids).
   */
  function providerWriting(label: string, everyMs = 300): { stop: () => Promise<string[]> } {
    const ids: string[] = [];
    let writing = true;
    const postUntilAccepted = async (payload: unknown, n: number): Promise<void> => {
      for (let attempt = 0; ; attempt += 1) {
        const api = cluster.apis[(n + attempt) % cluster.apis.length]!;
        const res = api.running ? await postCallback(api.baseUrl, payload, { appSecret: APP_SECRET }).catch(() => undefined) : undefined;
        if (res?.status === 200) return;
        await sleep(500);
      }
    };
    const pending: Promise<void>[] = [];
    const loop = (async () => {
      for (let n = 1; writing; n += 1) {
        const message = textMessage({ phone: '4915100900003' }, `${label} ${n}`);
        ids.push(message.id as string);
        const payload = callback({
          wabaId: cloudNumber.wabaId,
          changes: [messagesChange(cloudNumber.phoneNumberId, { contacts: [contact({ phone: '4915100900003', name: 'Cloud Contact' })], messages: [message] })],
        });
        pending.push(postUntilAccepted(payload, n));
        await sleep(everyMs);
      }
    })();
    return {
      stop: async () => {
        writing = false;
        await loop;
        await Promise.all(pending);
        return ids;
      },
    };
  }

  /** Channel message ids the webhook receiver got for a workspace (any number of times each). */
  const delivered = (ws: Workspace): Set<string> =>
    new Set(
      receiver
        .at()
        .map((request) => JSON.parse(request.body.toString('utf8')) as { workspace_id?: string; chat_message_id?: string })
        .filter((body) => body.workspace_id === ws.id)
        .map((body) => body.chat_message_id ?? ''),
    );

  async function expectAllDelivered(written: Map<Workspace, string[]>): Promise<void> {
    for (const [ws, ids] of written) {
      await waitFor(`${ids.length} webhook deliveries for ${ws.phone}`, async () => ids.every((id) => delivered(ws).has(id)), 60_000, 200).catch(
        (error: Error) => {
          throw new Error(`${error.message}; not delivered: ${ids.filter((id) => !delivered(ws).has(id)).join(', ')}`);
        },
      );
    }
  }

  /** A contact writing to each number every `everyMs` until stopped; answers the ids per workspace. */
  const contactsWriting = (workspaces: Workspace[], label: string, everyMs = 150): ContactsWriting =>
    writing(sim, workspaces, { from: '4915100900001', name: 'Fault Tester' }, label, everyMs);

  async function expectStoredOnce(written: Map<Workspace, string[]>): Promise<void> {
    for (const [ws, ids] of written) {
      expect(ids.length).toBeGreaterThan(0);
      expect(await cluster.allStoredOnce(ws.id, ids, 60_000)).toEqual([]);
    }
  }

  const health = async (i: number): Promise<{ status: number; body: unknown }> => cluster.request('GET', '/api/health', {}, undefined, i);

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    receiver = await Receiver.start();
    receiverPort = receiver.port;
    graph = await FakeGraphApi.start({ appId: '1234567890', appSecret: APP_SECRET });
    graph.world.addNumber(
      { id: cloudNumber.phoneNumberId, wabaId: cloudNumber.wabaId, displayPhoneNumber: '+1 555-0199', verifiedName: 'Fault Shop' },
      cloudNumber.token,
    );
    cluster = await FaultCluster.start(sim, {
      META_APP_ID: '1234567890',
      META_APP_SECRET: APP_SECRET,
      META_VERIFY_TOKEN: 'fault-suite',
      META_GRAPH_URL: graph.url,
    });
    alpha = await cluster.workspace('Alpha', '15550700001');
    beta = await cluster.workspace('Beta', '15550700002');
    cloud = await cluster.workspace('Cloud', '');
    await cluster.connectCloudNumber(cloud, cloudNumber);
    for (const ws of [alpha, beta]) await cluster.addWebhook(ws, receiver.url(`/hook/${ws.phone}`));
    await cluster.link(alpha);
    await cluster.link(beta);
  });

  afterAll(async () => {
    if (failed() && cluster) console.error(`fault suite: process logs\n${cluster.logs()}`);
    const problems = await cleanupAll();
    await sim?.stop();
    await receiver?.close();
    await graph?.close();
    if (problems.length) throw new Error(`cleanup: ${problems.join('; ')}`);
  });

  scenario('links both numbers once; each socket is held by exactly one worker', async () => {
    expect(await cluster.status(alpha)).toMatchObject({ connected: true, logged_in: true });
    expect(await cluster.status(beta, 1)).toMatchObject({ connected: true, logged_in: true });
    expect((await cluster.held()).reduce((a, b) => a + b, 0)).toBe(2);
    expect(sim.devicesOf(alpha.phone)).toHaveLength(1);
    expect(sim.devicesOf(beta.phone)).toHaveLength(1);
  });

  scenario(
    'kill -9 of a worker holding sessions: the other worker resumes them without a QR code, every message WhatsApp still held is stored once',
    async () => {
      const held = await cluster.held();
      const victim = cluster.workers[held[0]! >= held[1]! ? 0 : 1]!;
      const survivor = cluster.workers.find((w) => w !== victim)!;
      let qrs = 0;
      const countQr = (): void => void (qrs += 1);
      sim.events.on('refs', countQr);
      const ledger = AckLedger.watch(sim);
      try {
        const writers = contactsWriting([alpha, beta], 'during kill -9');
        const provider = providerWriting('Cloud API during kill -9');
        await sleep(1_500);
        const killedAt = Date.now();
        expect((await victim.signal('SIGKILL')).signal).toBe('SIGKILL');
        // The dead worker's leases run out (CHAT_LEASE_TTL_MS), the survivor's sweep takes them.
        await waitFor('the survivor holds both sessions', async () => (await cluster.held())[cluster.workers.indexOf(survivor)] === 2, 30_000);
        for (const ws of [alpha, beta]) await waitFor(`${ws.phone} connected again`, async () => (await cluster.status(ws)).connected === true, 30_000);
        await sleep(500);
        const written = await writers.stop();
        // The receipt of an inbound message goes to WhatsApp only once it is stored
        // (scripts/patch-baileys.mjs): what the dead worker had not committed, WhatsApp delivers
        // again to the survivor. Nothing is missing, nothing is stored twice.
        expect([alpha, beta].some((ws) => ledger.closedAfter(ws.phone, killedAt) !== undefined)).toBe(true);
        await expectStoredOnce(written);
        await expectAllDelivered(written);
        expect(await cluster.allStoredOnce(cloud.id, await provider.stop(), 60_000)).toEqual([]);
        expect(qrs).toBe(0);
        expect(sim.devicesOf(alpha.phone)).toHaveLength(1);
        expect(sim.devicesOf(beta.phone)).toHaveLength(1);
      } finally {
        ledger.stop();
        sim.events.off('refs', countQr);
        // Later scenarios need both workers, whatever happened here.
        if (!victim.running) await victim.start();
      }
    },
  );

  scenario('Postgres stopped for 10 s: health says degraded, the service recovers, messages that arrived meanwhile are stored once', async () => {
    const writers = contactsWriting([alpha, beta], 'during the Postgres outage', 400);
    const provider = providerWriting('Cloud API during the Postgres outage');
    await sleep(300);
    await cluster.postgres.stop('fast');
    const stoppedAt = Date.now();
    for (const i of [0, 1]) {
      const answer = await waitFor(
        `api-${i + 1} reporting the database down`,
        async () => {
          const h = await health(i);
          return h.status === 503 ? h : undefined;
        },
        8_000,
      );
      expect(answer.body).toEqual({ status: 'degraded', checks: { database: 'down', redis: 'up' } });
    }
    // A request that needs the database says "retry", never 500.
    const during = await cluster.request('GET', '/api/conversations', { key: alpha.key });
    expect(during.status).toBe(503);
    await sleep(Math.max(0, 10_000 - (Date.now() - stoppedAt)));
    await cluster.postgres.startServer();
    for (const i of [0, 1]) await waitFor(`api-${i + 1} healthy again`, async () => (await health(i)).status === 200, 30_000);
    for (const ws of [alpha, beta]) await waitFor(`${ws.phone} connected after the outage`, async () => (await cluster.status(ws)).connected === true, 60_000);
    await sleep(1_000);
    const written = await writers.stop();
    await expectStoredOnce(written);
    await expectAllDelivered(written);
    // Callbacks the provider had to retry while Postgres was away: each message stored once.
    const cloudIds = await provider.stop();
    expect(cloudIds.length).toBeGreaterThan(0);
    expect(await cluster.allStoredOnce(cloud.id, cloudIds, 60_000)).toEqual([]);
    expect((await cluster.request('GET', '/api/conversations', { key: alpha.key })).status).toBe(200);
  });

  scenario('Redis killed and restarted: health says degraded, sessions come back, messages are stored once', async () => {
    const writers = contactsWriting([alpha, beta], 'during the Redis outage', 400);
    await sleep(300);
    await cluster.redis.stop('SIGKILL');
    const answer = await waitFor(
      'api-1 reporting Redis down',
      async () => {
        const h = await health(0);
        return h.status === 503 ? h : undefined;
      },
      8_000,
    );
    expect(answer.body).toEqual({ status: 'degraded', checks: { database: 'up', redis: 'down' } });
    await sleep(3_000);
    await cluster.redis.startServer();
    for (const i of [0, 1]) await waitFor(`api-${i + 1} healthy again`, async () => (await health(i)).status === 200, 30_000);
    for (const ws of [alpha, beta]) await waitFor(`${ws.phone} connected after the outage`, async () => (await cluster.status(ws)).connected === true, 60_000);
    await sleep(1_000);
    const written = await writers.stop();
    await expectStoredOnce(written);
    await expectAllDelivered(written);
    expect((await cluster.held()).reduce((a, b) => a + b, 0)).toBe(2);
  });

  scenario('a webhook receiver down for a while: everything is delivered after it returns', async () => {
    await receiver.close();
    const writers = contactsWriting([alpha, beta], 'while the receiver is down', 300);
    await sleep(4_000);
    const written = await writers.stop();
    await expectStoredOnce(written);
    receiver = await Receiver.start(receiverPort);
    await expectAllDelivered(written);
    // The attempts that failed meanwhile were counted by the workers.
    const failures = await Promise.all(
      cluster.workers.map(
        async (w) => /inbox_webhook_delivery_attempts_total\{kind="scheduled",outcome="retrying"\} (\d+)/.exec(await cluster.metrics(w))?.[1] ?? '0',
      ),
    );
    expect(failures.reduce((sum, n) => sum + Number(n), 0)).toBeGreaterThan(0);
  });

  scenario('Redis restarted with deliveries queued: they complete afterwards', async () => {
    await receiver.close();
    const writers = contactsWriting([alpha, beta], 'queued across a Redis restart', 300);
    await sleep(2_000);
    const written = await writers.stop();
    await expectStoredOnce(written);
    await cluster.redis.stop('SIGKILL');
    await sleep(2_000);
    await cluster.redis.startServer();
    for (const i of [0, 1]) await waitFor(`api-${i + 1} healthy again`, async () => (await health(i)).status === 200, 30_000);
    receiver = await Receiver.start(receiverPort);
    await expectAllDelivered(written);
    for (const ws of [alpha, beta]) await waitFor(`${ws.phone} connected after the restart`, async () => (await cluster.status(ws)).connected === true, 60_000);
  });

  scenario('SIGTERM: an in-flight request and an in-flight job finish, the processes exit 0', async () => {
    // A request that takes seconds: connect on a new number waits for its first QR code.
    const gamma = await cluster.workspace('Gamma', '15550700003');
    const api = cluster.apis[1]!;
    const connecting = cluster.request('POST', '/api/chat/connect', { cookie: gamma.cookie, tenant: gamma.id }, undefined, 1);
    await sleep(150);
    const apiExit = api.signal('SIGTERM');
    const connected = await connecting;
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ qr_pending: true, logged_in: false });
    expect(await apiExit).toEqual({ code: 0, signal: null });

    // A job that takes a while: a large history batch, bulk-ingested by a history-sync job.
    const messages = Array.from({ length: 3000 }, (_, n) => ({ text: `history ${n}` }));
    await sim.pushHistory(alpha.phone, [{ contact: '4915100900002', name: 'History Contact', messages }]);
    await waitFor(
      'the history job running',
      async () => /^inbox_queue_jobs\{queue="history-sync",state="active"\} 1$/m.test(await cluster.metrics(cluster.apis[0]!)),
      30_000,
      20,
    );
    const exits = await Promise.all(cluster.workers.map((worker) => worker.signal('SIGTERM')));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    const { rows } = await cluster.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.workspace_id = $1 AND c.chat_jid = $2`,
      [alpha.id, '4915100900002@s.whatsapp.net'],
    );
    expect(rows[0]!.n).toBe(3000);
    const metrics = await cluster.metrics(cluster.apis[0]!);
    expect(metrics).toMatch(/^inbox_queue_jobs\{queue="history-sync",state="active"\} 0$/m);

    // Back to full strength: the numbers resume on the restarted workers without a QR code.
    await Promise.all([api.start(), ...cluster.workers.map((worker) => worker.start())]);
    for (const ws of [alpha, beta]) await waitFor(`${ws.phone} resumed`, async () => (await cluster.status(ws)).connected === true, 60_000);
    expect(sim.devicesOf(alpha.phone)).toHaveLength(1);
  });
});
