import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ScanLeases } from '../../src/modules/chat/session/scan-leases.js';
import { ScanSessions } from '../../src/modules/chat/session/scan-sessions.port.js';
import type { FakeScanSocket } from '../support/fake-scan-driver.js';
import { chat, createChatApp, eventually, type ChatTestApp } from './chat-support.js';

/**
 * Several processes on one database and Redis: an `api` process (no sockets) and `worker`
 * processes, as in production. Each worker has its own fake driver, so a socket shows which
 * process opened it.
 */
// Takeovers wait for a lease to run out (CHAT_LEASE_TTL_MS, 10 s in tests).
jest.setTimeout(90_000);

describe('scan sessions across processes', () => {
  let api: ChatTestApp;
  const workers: ChatTestApp[] = [];
  let workspaceId: string;
  let key: string;
  let owner: { cookie: string; workspaceId: string };

  const startWorker = async (): Promise<ChatTestApp> => {
    const worker = await createChatApp({ replicaOf: api, env: { ROLE: 'worker' } });
    workers.push(worker);
    return worker;
  };
  const stopWorker = async (worker: ChatTestApp): Promise<void> => {
    workers.splice(workers.indexOf(worker), 1);
    await worker.close();
  };
  /** Sockets of the workspace not yet closed, across every worker. */
  const live = (): FakeScanSocket[] => workers.flatMap((w) => w.driver.of(workspaceId)).filter((s) => !s.ended && !s.closedByService);
  const holderOf = (): ChatTestApp | undefined => workers.find((w) => w.driver.of(workspaceId).some((s) => !s.ended && !s.closedByService));

  beforeAll(async () => {
    api = await createChatApp({ env: { ROLE: 'api' } });
    await startWorker();
    await startWorker();
    const created = await api.factories.workspaceWithOwner();
    workspaceId = created.workspace.id;
    key = created.key;
    owner = { cookie: created.owner.cookie, workspaceId };
  });
  afterAll(async () => {
    for (const worker of [...workers]) await worker.close();
    await api?.close();
  });

  it('connect on an api process reaches a worker, and any replica serves the QR code', async () => {
    const res = await chat(api, owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    expect(api.driver.sockets).toEqual([]);
    expect(live()).toHaveLength(1);
    const fromApi = await chat(api, { key }, 'get', '/api/chat/qr');
    const fromWorker = await chat(workers[1]!, { key }, 'get', '/api/chat/qr');
    expect(fromApi.body.pending).toBe(true);
    expect(fromWorker.body).toEqual(fromApi.body);
  });

  it('links on one worker only, even when connect is called again', async () => {
    await live()[0]!.scan();
    await eventually('connected', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === true);
    expect((await chat(api, owner, 'post', '/api/chat/connect')).body).toMatchObject({ connected: true, logged_in: true });
    expect(live()).toHaveLength(1);
  });

  it('sends from the api process through the worker holding the socket', async () => {
    const res = await api.app.get(ScanSessions).send(workspaceId, '4915000000001@s.whatsapp.net', {
      type: 'document',
      data: Buffer.from('%PDF-1.4 tiny'),
      mimeType: 'application/pdf',
      fileName: 'offer.pdf',
      caption: 'the offer',
    });
    expect(res.externalId).toMatch(/^3EB0FAKE/);
    const sent = live()[0]!.sent.at(-1)!;
    expect(sent.outgoing).toEqual({
      type: 'document',
      data: Buffer.from('%PDF-1.4 tiny'),
      mimeType: 'application/pdf',
      fileName: 'offer.pdf',
      caption: 'the offer',
    });
  });

  it('when the holder stops renewing, it closes its socket and another worker takes over without a QR', async () => {
    const holder = holderOf()!;
    const old = live()[0]!;
    // Cut off from Redis: it can neither renew its leases nor take any.
    const leases = holder.app.get(ScanLeases);
    jest.spyOn(leases, 'renew').mockRejectedValue(new Error('Redis unreachable from this worker'));
    jest.spyOn(leases, 'acquire').mockRejectedValue(new Error('Redis unreachable from this worker'));
    const survivor = workers.find((w) => w !== holder)!;
    const taken = await eventually('the takeover', () => survivor.driver.latest(workspaceId), 40_000);
    expect(old.closedByService).toBe(true);
    // The old socket was closed before the new one was opened: never two at once.
    expect(old.closedAt!).toBeLessThanOrEqual(taken.openedAt);
    await eventually('connected again', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === true, 40_000);
    expect(taken.events.map((e) => e.type)).toEqual(['open']);
    expect(live()).toEqual([taken]);
    await stopWorker(holder);
  });

  it('a worker whose lease was taken from it closes the socket at once', async () => {
    const holder = holderOf()!;
    const socket = live()[0]!;
    const leaseKey = holder.app.get(ScanLeases).key(workspaceId);
    await api.redis.set(leaseKey, 'another-process/abc', 'PX', 2000);
    await eventually('the socket closed', () => socket.closedByService, 40_000);
    // Once that lease runs out, the session is resumed again.
    await eventually('resumed', () => live().length === 1 && live()[0] !== socket, 40_000);
  });

  it('after every worker restarts, the session resumes without a new QR', async () => {
    for (const worker of [...workers]) await stopWorker(worker);
    await eventually('disconnected', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === false);
    const fresh = await startWorker();
    const socket = await eventually('the resumed socket', () => fresh.driver.latest(workspaceId), 40_000);
    await eventually('connected', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === true, 40_000);
    expect(socket.events.map((e) => e.type)).toEqual(['open']);
    expect((await chat(api, { key }, 'get', '/api/chat/status')).body).toMatchObject({
      connected: true,
      logged_in: true,
      jid: '4915123456789:12@s.whatsapp.net',
    });
  });

  it('disconnect on the api process unlinks through the worker', async () => {
    const socket = live()[0]!;
    const res = await chat(api, owner, 'post', '/api/chat/disconnect');
    expect(res.body).toEqual({ connected: false, logged_in: false, qr_pending: false });
    expect(socket.loggedOut).toBe(true);
    expect(live()).toEqual([]);
  });

  it('connect answers 500 when no worker is running', async () => {
    for (const worker of [...workers]) await stopWorker(worker);
    const res = await chat(api, owner, 'post', '/api/chat/connect');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'no worker process is running to hold the session; start one (ROLE=worker or all) and retry' });
  });
});
