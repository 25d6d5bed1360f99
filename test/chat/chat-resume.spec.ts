import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCAN_AUTH_STORAGE, type ScanAuthStorageFactory } from '../../src/modules/chat/driver/scan-driver.port.js';
import { ScanSessionRepository } from '../../src/modules/chat/session/scan-session.repository.js';
import { chat, createChatApp, eventually, type ChatTestApp } from './chat-support.js';

/**
 * Resuming many linked sessions (start-up, takeover): at most CHAT_RESUME_CONCURRENCY of them
 * connect at once; the next starts as soon as one has connected. The fake driver's sockets stay
 * "connecting" until the test lets them log in.
 */
describe('scan sessions: paced resume', () => {
  let api: ChatTestApp;
  let worker: ChatTestApp;
  const sessions: { workspaceId: string; key: string }[] = [];

  beforeAll(async () => {
    api = await createChatApp({ env: { ROLE: 'api' } });
    worker = await createChatApp({ replicaOf: api, env: { ROLE: 'worker', CHAT_RESUME_CONCURRENCY: '2', CHAT_RESUME_PER_SECOND: '1000' } });
    for (let i = 0; i < 5; i += 1) {
      const created = await api.factories.workspaceWithOwner();
      sessions.push({ workspaceId: created.workspace.id, key: created.key });
      worker.driver.manualStart.add(created.workspace.id);
    }
    // Five numbers linked earlier (creds with an identity, the row wanted and linked): the next
    // sweep resumes them all.
    const auth = api.app.get<ScanAuthStorageFactory>(SCAN_AUTH_STORAGE);
    for (const [i, { workspaceId }] of sessions.entries()) {
      const me = { id: `49151000000${i}:7@s.whatsapp.net`, lid: `9000000${i}:7@lid`, name: 'Shop' };
      await auth.forWorkspace(workspaceId).writeCreds(JSON.stringify({ registered: true, me }));
      await api.app.get(ScanSessionRepository).update(workspaceId, { desired: 'running', linked: true, jid: me.id });
    }
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('opens at most CHAT_RESUME_CONCURRENCY sockets at a time, and the next as soon as one has connected', async () => {
    const opened = () => worker.driver.sockets;
    await eventually('two sockets connecting', () => opened().length === 2);
    // Sweeps run every 200 ms meanwhile: none opens a third while two are still connecting.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(opened()).toHaveLength(2);

    await opened()[0]!.start();
    await eventually('a third socket', () => opened().length === 3);
    for (let started = 1; started < 5; started += 1) {
      await eventually(`socket ${started + 1}`, () => opened().length > started);
      await opened()[started]!.start();
    }
    expect(opened()).toHaveLength(5);
    for (const { key } of sessions) {
      await eventually('connected', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === true);
    }
  });
});

describe('scan sessions: resume across sweeps', () => {
  let api: ChatTestApp;
  let worker: ChatTestApp;

  beforeAll(async () => {
    api = await createChatApp({ env: { ROLE: 'api' } });
    worker = await createChatApp({ replicaOf: api, env: { ROLE: 'worker', CHAT_RESUME_CONCURRENCY: '2', CHAT_RESUME_PER_SECOND: '1000' } });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const linkedEarlier = async (i: number): Promise<string> => {
    const { workspace } = await api.factories.workspaceWithOwner();
    worker.driver.manualStart.add(workspace.id);
    const me = { id: `49152000000${i}:7@s.whatsapp.net`, lid: `9100000${i}:7@lid`, name: 'Shop' };
    await api.app
      .get<ScanAuthStorageFactory>(SCAN_AUTH_STORAGE)
      .forWorkspace(workspace.id)
      .writeCreds(JSON.stringify({ registered: true, me }));
    await api.app.get(ScanSessionRepository).update(workspace.id, { desired: 'running', linked: true, jid: me.id });
    return workspace.id;
  };

  it('resumes a session that became resumable while an earlier one is still connecting, when a slot is free', async () => {
    await linkedEarlier(0);
    await eventually('the first socket connecting', () => worker.driver.sockets.length === 1);
    // The first handshake hangs; a later sweep still takes the second session into the free slot.
    await linkedEarlier(1);
    await eventually('the second socket', () => worker.driver.sockets.length === 2, 5_000);
    for (const socket of worker.driver.sockets) await socket.start();
  });
});
