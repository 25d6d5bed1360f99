import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ScanDataEvent } from '../../src/modules/chat/session/scan-sessions.port.js';
import { ScanEventHandler, ScanNotConnectedError, ScanSessions } from '../../src/modules/chat/session/scan-sessions.port.js';
import { ScanLiveStateStore } from '../../src/modules/chat/session/scan-live-state.store.js';
import type { FakeScanSocket } from '../support/fake-scan-driver.js';
import { chat, createChatApp, eventually, socketOf, type ChatTestApp } from './chat-support.js';

/** Records what the session manager hands to the inbox side. */
class RecordingHandler extends ScanEventHandler {
  readonly seen: { workspaceId: string; event: ScanDataEvent }[] = [];
  handle(workspaceId: string, event: ScanDataEvent): Promise<void> {
    this.seen.push({ workspaceId, event });
    // A failing handler must not hurt the socket.
    if (event.type === 'receipts') return Promise.reject(new Error('inbox hiccup'));
    return Promise.resolve();
  }
}

describe('scan session close codes', () => {
  let t: ChatTestApp;
  const handler = new RecordingHandler();

  beforeAll(async () => {
    t = await createChatApp({ customize: (b) => b.overrideProvider(ScanEventHandler).useValue(handler) });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A new workspace whose number is linked and connected. */
  async function linked(): Promise<{ workspaceId: string; key: string; cookie: string; socket: FakeScanSocket }> {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    const caller = { cookie: owner.cookie, workspaceId: workspace.id };
    expect((await chat(t, caller, 'post', '/api/chat/connect')).body.qr_pending).toBe(true);
    await (await socketOf(t, workspace.id)).scan();
    const socket = await socketOf(t, workspace.id, (s) => s.events.some((e) => e.type === 'open'));
    await eventually('connected', async () => (await chat(t, { key }, 'get', '/api/chat/status')).body.connected === true);
    return { workspaceId: workspace.id, key, cookie: owner.cookie, socket };
  }

  const status = async (key: string): Promise<Record<string, unknown>> => (await chat(t, { key }, 'get', '/api/chat/status')).body as Record<string, unknown>;
  const row = async (workspaceId: string): Promise<Record<string, unknown>> =>
    (
      (await t.dataSource.query('SELECT desired, linked, failures, last_error FROM scan_sessions WHERE workspace_id = $1', [workspaceId])) as Record<
        string,
        unknown
      >[]
    )[0]!;
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400));
  const socket401 = (socket: FakeScanSocket): void => socket.closeWith(401, 'Stream Errored (conflict)', { removed: true });

  it('515 reopens at once with the same keys and is not a failure', async () => {
    const { workspaceId, key, socket } = await linked();
    socket.closeWith(515, 'restart required');
    const next = await socketOf(t, workspaceId, (s) => s !== socket && s.events.some((e) => e.type === 'open'));
    expect(next.events.map((e) => e.type)).toEqual(['open']);
    await eventually('connected again', async () => (await status(key)).connected === true);
    expect(await row(workspaceId)).toMatchObject({ failures: 0, linked: true, desired: 'running' });
  });

  it.each([
    [
      'the phone removed the device',
      { removed: true },
      'logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again',
    ],
    [
      'any other 401',
      {},
      'WhatsApp logged this device out (401 logged out: removed in Linked devices on the phone, or no longer known to WhatsApp): call POST /api/chat/connect to link the number again',
    ],
  ])('401 (%s) deletes the auth state: not linked, no reconnect, and the status and the QR endpoint say why', async (_what, flags, text) => {
    const { workspaceId, key, socket } = await linked();
    socket.closeWith(401, 'Connection Failure', flags);
    await eventually('not linked', async () => (await status(key)).logged_in === false);
    expect(await status(key)).toMatchObject({ connected: false, logged_in: false, qr_pending: false, error: text, sync: { state: 'idle', progress: 0 } });
    expect((await status(key)).jid).toBeUndefined();
    expect((await chat(t, { key }, 'get', '/api/chat/qr')).body).toEqual({ pending: false, image: '', error: text, message: text });
    expect(await row(workspaceId)).toMatchObject({ linked: false, desired: 'stopped', last_error: text });
    expect(await socket.options.auth.readCreds()).toBeNull();
    await settle();
    expect(t.driver.latest(workspaceId)).toBe(socket);
  });

  it('a disconnect here unlinks without an error, and connect after a logout clears the error with a new QR code', async () => {
    const first = await linked();
    socket401(first.socket);
    await eventually('not linked', async () => (await status(first.key)).logged_in === false);
    const res = await chat(t, { cookie: first.cookie, workspaceId: first.workspaceId }, 'post', '/api/chat/connect');
    expect([res.status, res.body]).toEqual([200, { connected: false, logged_in: false, qr_pending: true }]);
    expect((await status(first.key)).error).toBeUndefined();

    const second = await linked();
    const off = await chat(t, { cookie: second.cookie, workspaceId: second.workspaceId }, 'post', '/api/chat/disconnect');
    expect(off.status).toBe(200);
    const after = await status(second.key);
    expect(after).toMatchObject({ connected: false, logged_in: false });
    expect(after.error).toBeUndefined();
  });

  it.each([
    [403, 'WhatsApp refused this number (403 forbidden): it may be banned or blocked; its link is kept'],
    [440, 'another connection took over this number (440 connection replaced); call POST /api/chat/connect to take it back'],
  ])('%i stops without reconnecting, keeps the keys and reports why', async (code, text) => {
    const { workspaceId, key, socket } = await linked();
    socket.closeWith(code, 'stream error');
    await eventually('the error in the status', async () => (await status(key)).error === text);
    expect(await status(key)).toMatchObject({ connected: false, logged_in: true, qr_pending: false, error: text });
    expect(await row(workspaceId)).toMatchObject({ desired: 'stopped', linked: true });
    expect(await socket.options.auth.readCreds()).not.toBeNull();
    await settle();
    expect(t.driver.latest(workspaceId)).toBe(socket);
  });

  it.each([408, 428, 500, 503])('%i reconnects with backoff, and the connection counts as healthy again', async (code) => {
    const { workspaceId, key, socket } = await linked();
    socket.closeWith(code, 'connection trouble');
    const next = await socketOf(t, workspaceId, (s) => s !== socket && s.events.some((e) => e.type === 'open'));
    expect(next.events.map((e) => e.type)).toEqual(['open']);
    await eventually('connected again', async () => (await status(key)).connected === true);
    expect(await row(workspaceId)).toMatchObject({ failures: 0, last_error: null });
  });

  it('a session that keeps failing stops after CHAT_MAX_FAILURES and reports it', async () => {
    const { workspaceId, key, socket } = await linked();
    // Reconnects that never get as far as logging in.
    t.driver.manualStart.add(workspaceId);
    let current = socket;
    for (let i = 0; i < 3; i++) {
      current.closeWith(503, 'Service Unavailable');
      if (i < 2) current = await socketOf(t, workspaceId, (s) => s !== current);
    }
    const error = await eventually('the error', async () => (await status(key)).error as string | undefined);
    expect(error).toBe('the connection failed 3 times in a row (last: Service Unavailable (503)); call POST /api/chat/connect to try again');
    expect(await row(workspaceId)).toMatchObject({ desired: 'stopped', linked: true, failures: 3 });
    await settle();
    expect(t.driver.latest(workspaceId)).toBe(current);
    t.driver.manualStart.delete(workspaceId);
  });

  it('a failed auth-state write stops the session and reports it', async () => {
    const { workspaceId, key, socket } = await linked();
    socket.closeWith(500, 'write of 3 session keys failed: connection refused', { authFailure: true });
    const error = await eventually('the error', async () => (await status(key)).error as string | undefined);
    expect(error).toBe("the session's keys could not be saved, so it was stopped: write of 3 session keys failed: connection refused");
    await settle();
    expect(t.driver.latest(workspaceId)).toBe(socket);
  });

  it('connect after a stop starts again and clears the error', async () => {
    const { workspaceId, key, cookie, socket } = await linked();
    socket.closeWith(440, 'conflict');
    await eventually('stopped', async () => (await status(key)).error !== undefined);
    const res = await chat(t, { cookie, workspaceId }, 'post', '/api/chat/connect');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ connected: true, logged_in: true });
    expect((await status(key)).error).toBeUndefined();
  });

  it('connect that comes while a stop is still being written waits for it, then starts again (not the old error)', async () => {
    const { workspaceId, key, cookie, socket } = await linked();
    // Widen the stop's window: its error shows in the status before the holder finishes writing.
    const live = t.app.get(ScanLiveStateStore);
    const clear = live.clear.bind(live);
    live.clear = async (id: string) => {
      if (id === workspaceId) await new Promise((resolve) => setTimeout(resolve, 500));
      return clear(id);
    };
    try {
      socket.closeWith(440, 'conflict');
      await eventually('stopped', async () => (await status(key)).error !== undefined);
      const res = await chat(t, { cookie, workspaceId }, 'post', '/api/chat/connect');
      expect([res.status, res.body.error]).toEqual([200, undefined]);
      expect(res.body).toMatchObject({ connected: true, logged_in: true });
    } finally {
      live.clear = clear;
    }
  });

  it('hands data events to the inbox in order, and a failing one does not hurt the socket', async () => {
    const { workspaceId, key, socket } = await linked();
    const message = (id: string): ScanDataEvent => ({
      type: 'messages',
      kind: 'notify',
      messages: [
        {
          externalId: id,
          chatJid: '4915000000001@s.whatsapp.net',
          chatJidAlt: null,
          isGroup: false,
          fromMe: false,
          senderJid: '4915000000001@s.whatsapp.net',
          senderJidAlt: null,
          senderName: 'Ann',
          type: 'text',
          content: `text ${id}`,
          media: null,
          timestamp: new Date('2026-11-24T08:00:00Z'),
        },
      ],
    });
    socket.emit(message('A'));
    socket.emit({ type: 'receipts', receipts: [{ chatJid: '4915000000001@s.whatsapp.net', externalId: 'X', status: 'read' }] });
    socket.emit(message('B'));
    socket.emit({ type: 'lid-mappings', mappings: [{ lid: '1234@lid', phone: '4915000000001' }] });
    const mine = await eventually('four events', () => {
      const events = handler.seen.filter((s) => s.workspaceId === workspaceId).map((s) => s.event);
      return events.length >= 4 ? events : undefined;
    });
    expect(mine.map((e) => (e.type === 'messages' ? e.messages[0]!.externalId : e.type))).toEqual(['A', 'receipts', 'B', 'lid-mappings']);
    expect((await status(key)).connected).toBe(true);
  });

  it('sends through the open socket, and refuses with "chat is not connected" when it is closed', async () => {
    const { workspaceId, socket } = await linked();
    const sessions = t.app.get(ScanSessions);
    expect(await sessions.isConnected(workspaceId)).toBe(true);
    const sent = await sessions.send(workspaceId, '4915000000001@s.whatsapp.net', { type: 'text', body: 'hello' });
    expect(sent.externalId).toMatch(/^3EB0FAKE/);
    expect(socket.sent).toEqual([{ jid: '4915000000001@s.whatsapp.net', outgoing: { type: 'text', body: 'hello' } }]);

    socket.closeWith(403, 'forbidden');
    await eventually('closed', async () => !(await sessions.isConnected(workspaceId)));
    await expect(sessions.send(workspaceId, '4915000000001@s.whatsapp.net', { type: 'text', body: 'x' })).rejects.toThrow(ScanNotConnectedError);
    await expect(sessions.markRead(workspaceId, [{ chatJid: 'a@s.whatsapp.net', externalId: 'B', participant: null }])).rejects.toThrow(
      'chat is not connected',
    );
  });

  it("answers the channel's retry requests (getMessage) from the stored outbound messages of the workspace", async () => {
    const { workspaceId, socket } = await linked();
    const chatJid = '4915000000002@s.whatsapp.net';
    const [conversation] = (await t.dataSource.query(`INSERT INTO conversations (workspace_id, channel, chat_jid) VALUES ($1, 'scan', $2) RETURNING id`, [
      workspaceId,
      chatJid,
    ])) as { id: string }[];
    await t.dataSource.query(
      `INSERT INTO messages (workspace_id, conversation_id, channel, external_id, direction, message_type, content, status, timestamp)
       VALUES ($1, $2, 'scan', 'OUT1', 'outbound', 'text', 'see you at 5', 'sent', now()),
              ($1, $2, 'scan', 'IN1', 'inbound', 'text', 'not ours to resend', 'delivered', now())`,
      [workspaceId, conversation!.id],
    );
    expect(await socket.options.getMessage(chatJid, 'OUT1')).toEqual({ type: 'text', content: 'see you at 5', details: null });
    expect(await socket.options.getMessage(chatJid, 'IN1')).toBeUndefined();
    expect(await socket.options.getMessage(chatJid, 'UNKNOWN')).toBeUndefined();
    // Another workspace's socket never sees it.
    const other = await linked();
    expect(await other.socket.options.getMessage(chatJid, 'OUT1')).toBeUndefined();
  });
});
