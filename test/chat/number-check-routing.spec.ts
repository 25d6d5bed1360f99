import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { LOOKUP_TIMEOUT_MS, lookupNumbers } from '../../src/modules/chat/driver/baileys/baileys-number-lookup.js';
import type { BaileysSocket } from '../../src/modules/chat/driver/baileys/baileys-socket.types.js';
import { ScanLookupTimeoutError, ScanSessions } from '../../src/modules/chat/session/scan-sessions.port.js';
import type { FakeScanSocket } from '../support/fake-scan-driver.js';
import { chat, createChatApp, eventually, type ChatTestApp } from './chat-support.js';

/**
 * Number checks and chat states from an `api` process reach the worker holding the socket (the
 * control bus), with the socket's answers and failures as they are (issue 40).
 */
jest.setTimeout(60_000);

describe('number checks and chat states across processes', () => {
  let api: ChatTestApp;
  let worker: ChatTestApp;
  let key: string;
  let workspaceId: string;
  let socket: FakeScanSocket;
  const check = (phone: string) => chat(api, { key }, 'get', `/api/chat/check?phone=${phone}`);

  beforeAll(async () => {
    api = await createChatApp({ env: { ROLE: 'api' } });
    worker = await createChatApp({ replicaOf: api, env: { ROLE: 'worker' } });
    const created = await api.factories.workspaceWithOwner();
    workspaceId = created.workspace.id;
    key = created.key;
    expect((await chat(api, { cookie: created.owner.cookie, workspaceId }, 'post', '/api/chat/connect')).status).toBe(200);
    socket = await eventually('the socket', () => worker.driver.latest(workspaceId));
    await socket.scan();
    await eventually('connected', async () => (await chat(api, { key }, 'get', '/api/chat/status')).body.connected === true);
    socket = worker.driver.latest(workspaceId)!;
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('checks a number through the worker: on WhatsApp, and not', async () => {
    expect((await check('4915100006001')).body).toMatchObject({ phone: '4915100006001', exists: true, jid: '4915100006001@s.whatsapp.net', cached: false });
    socket.unknownNumbers.add('4915100006002');
    expect((await check('4915100006002')).body).toMatchObject({ phone: '4915100006002', exists: false, jid: null, cached: false });
    expect(socket.lookups).toEqual([['4915100006001'], ['4915100006002']]);
    expect(api.driver.sockets).toEqual([]);
  });

  it('WhatsApp not answering the check in time is 502 with its text, and nothing is cached', async () => {
    socket.lookupFailure = new ScanLookupTimeoutError();
    const res = await check('4915100006003');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'WhatsApp did not answer the number check in time' });
    socket.lookupFailure = null;
    expect((await check('4915100006003')).body).toMatchObject({ exists: true, cached: false });
  });

  it('shows chat states through the worker', async () => {
    const sessions = api.app.get(ScanSessions);
    await sessions.presence(workspaceId, '4915100006001@s.whatsapp.net', 'composing');
    await sessions.presence(workspaceId, '4915100006001@s.whatsapp.net', 'paused');
    expect(socket.presences).toEqual([
      { jid: '4915100006001@s.whatsapp.net', state: 'composing' },
      { jid: '4915100006001@s.whatsapp.net', state: 'paused' },
    ]);
  });
});

describe("the Baileys socket's number check", () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  const socketAnswering = (onWhatsApp: NonNullable<BaileysSocket['onWhatsApp']>): BaileysSocket => ({ onWhatsApp }) as unknown as BaileysSocket;

  it('answers every phone asked, in order: those WhatsApp left out do not exist', async () => {
    const asked: string[][] = [];
    const socket = socketAnswering(async (...jids) => {
      asked.push(jids);
      return [{ jid: '4915100007002@s.whatsapp.net', exists: true }];
    });
    expect(await lookupNumbers(socket, ['4915100007001', '4915100007002'])).toEqual([
      { phone: '4915100007001', exists: false, jid: null },
      { phone: '4915100007002', exists: true, jid: '4915100007002@s.whatsapp.net' },
    ]);
    expect(asked).toEqual([['4915100007001@s.whatsapp.net', '4915100007002@s.whatsapp.net']]);
  });

  it('gives up after 10 s without an answer', async () => {
    jest.useFakeTimers();
    const socket = socketAnswering(() => new Promise(() => undefined));
    const answer = lookupNumbers(socket, ['4915100007003']);
    const settled = answer.catch((error: unknown) => error);
    jest.advanceTimersByTime(LOOKUP_TIMEOUT_MS - 1);
    await Promise.resolve();
    jest.advanceTimersByTime(1);
    expect(await settled).toBeInstanceOf(ScanLookupTimeoutError);
    expect(LOOKUP_TIMEOUT_MS).toBe(10_000);
  });
});
