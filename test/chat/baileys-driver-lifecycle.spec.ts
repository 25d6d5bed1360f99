import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Boom } from '@hapi/boom';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { BufferJSON, DEFAULT_CONNECTION_CONFIG, proto } from '@whiskeysockets/baileys';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import type { ScanEvent } from '../../src/modules/chat/driver/scan-driver.port.js';
import { ScanNotConnectedError } from '../../src/modules/chat/session/scan-sessions.port.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';
import { OWN_LID, OWN_PHONE, PEER_LID, openFake, settle } from './baileys-driver.helpers.js';

describe('Baileys scan driver: socket lifecycle', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('configures Baileys for a server: our endpoint and version, a real OS name, no presence, no full history', async () => {
    const { fake } = await openFake({ env: { WA_WEBSOCKET_URL: 'ws://127.0.0.1:9/ws/chat', WA_VERSION: '2,3000,1' } });
    expect(fake.config).toMatchObject({
      waWebSocketUrl: 'ws://127.0.0.1:9/ws/chat',
      version: [2, 3000, 1],
      markOnlineOnConnect: false,
      syncFullHistory: false,
    });
    expect(fake.config.browser?.[0]).toBe('Ubuntu');
    const { HistorySyncType } = proto.HistorySync;
    expect(fake.config.shouldSyncHistoryMessage?.({ syncType: HistorySyncType.INITIAL_BOOTSTRAP })).toBe(true);
    expect(fake.config.shouldSyncHistoryMessage?.({ syncType: HistorySyncType.FULL })).toBe(false);

    const defaults = await openFake();
    expect(defaults.fake.config).toMatchObject({ waWebSocketUrl: 'wss://web.whatsapp.com/ws/chat', version: DEFAULT_CONNECTION_CONFIG.version });
  });

  it('reports each QR with when Baileys replaces it (60 s for the first, 20 s for each rotation), the scan (pair-success), no code after it, then one close with its code, then the login', async () => {
    const { fake, events } = await openFake({ linked: false });
    const shownAt = Date.parse('2026-01-01T10:00:00.000Z');
    const clock = jest.spyOn(Date, 'now').mockReturnValue(shownAt);
    fake.ev.emit('connection.update', { connection: 'connecting' });
    fake.ev.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#ref1,noise,identity,adv,1' });
    await settle();
    clock.mockReturnValue(shownAt + 60_000);
    fake.ev.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#ref2,noise,identity,adv,1' });
    await settle();
    clock.mockRestore();
    // Pair-success, as Baileys 7 reports it: the new `me` in the creds, then `isNewLogin`.
    fake.ev.emit('creds.update', { me: { id: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid` } });
    fake.ev.emit('connection.update', { isNewLogin: true, qr: undefined });
    await settle();
    // Baileys' QR timer outlives the pairing: a code it shows before the restart is for nobody.
    fake.ev.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#ref3,noise,identity,adv,1' });
    await fake.closeWith(515, 'Stream Errored (restart required)');
    await settle();
    expect(events).toEqual([
      { type: 'qr', code: 'https://wa.me/settings/linked_devices#ref1,noise,identity,adv,1', expiresAt: new Date('2026-01-01T10:01:00.000Z') },
      { type: 'qr', code: 'https://wa.me/settings/linked_devices#ref2,noise,identity,adv,1', expiresAt: new Date('2026-01-01T10:01:20.000Z') },
      { type: 'paired', identity: { jid: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid`, name: null } },
      { type: 'closed', code: 515, reason: 'Stream Errored (restart required)', qrExpired: false, authFailure: false },
    ]);

    const next = await openFake();
    next.fake.ev.emit('connection.update', { connection: 'open', isOnline: true });
    expect(next.events).toEqual([{ type: 'open', identity: { jid: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid`, name: 'Shop' } }]);
  });

  it.each([
    [401, 'Connection Failure', false],
    [403, 'Connection Failure', false],
    [440, 'Stream Errored (conflict)', false],
    [500, 'Stream Errored (unknown)', false],
    [503, 'Stream Errored (unavailable)', false],
    [428, 'Connection Terminated', false],
  ])('passes close code %i on as it came', async (code, message, qrExpired) => {
    const { fake, events } = await openFake();
    await fake.closeWith(code, message);
    expect(events).toEqual([{ type: 'closed', code, reason: message, qrExpired, authFailure: false }]);
  });

  it.each([
    ['with code="401", as WhatsApp sends it', 401],
    ['without a code (Baileys reads a bare conflict as 440 replaced)', 440],
  ])('reports a stream error <conflict type="device_removed"> %s as a 401 logout of a removed device', async (_how, statusCode) => {
    const { fake, events } = await openFake();
    await fake.end(new Boom('Stream Errored (conflict)', { statusCode, data: { tag: 'conflict', attrs: { type: 'device_removed' } } }));
    await settle();
    expect(events).toEqual([{ type: 'closed', code: 401, reason: 'Stream Errored (conflict)', qrExpired: false, authFailure: false, removed: true }]);
  });

  it('drops the auth-state writes a socket starts once it closed: none lands after its end was handled (a cleared store stays clear)', async () => {
    const { fake, auth, events } = await openFake();
    await fake.config.auth.keys.set({ session: { '15550002222.0': new Uint8Array([1]) } });
    expect(auth.rows.has('session/15550002222.0')).toBe(true);
    await fake.closeWith(401, 'Stream Errored (conflict)');
    await settle();
    expect(events.at(-1)).toMatchObject({ type: 'closed', code: 401 });
    // What a logout does next, then a straggler of the closed socket (a message still decrypting).
    await auth.clear();
    await fake.config.auth.keys.set({ session: { '15550003333.0': new Uint8Array([2]) } });
    expect([...auth.rows.keys()]).toEqual([]);
  });

  it('keeps a conflict of another kind (replaced) as the channel coded it', async () => {
    const { fake, events } = await openFake();
    await fake.end(new Boom('Stream Errored (conflict)', { statusCode: 440, data: { tag: 'conflict', attrs: { type: 'replaced' } } }));
    await settle();
    expect(events).toEqual([{ type: 'closed', code: 440, reason: 'Stream Errored (conflict)', qrExpired: false, authFailure: false }]);
  });

  it('tells the 408 of an exhausted QR from the 408 of a lost connection', async () => {
    const unlinked = await openFake({ linked: false });
    unlinked.fake.ev.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#only' });
    await unlinked.fake.closeWith(408, 'QR refs attempts ended');
    expect(unlinked.events.at(-1)).toEqual({ type: 'closed', code: 408, reason: 'QR refs attempts ended', qrExpired: true, authFailure: false });

    const auth = new MemoryScanAuth();
    await auth.writeCreds(JSON.stringify({ me: { id: `${OWN_PHONE}:7@s.whatsapp.net` } }, BufferJSON.replacer));
    const linked = await openFake({ auth });
    await linked.fake.closeWith(408, 'Connection was lost');
    expect(linked.events).toEqual([{ type: 'closed', code: 408, reason: 'Connection was lost', qrExpired: false, authFailure: false }]);
  });

  it('an unlinked socket that closes before its first QR never reached WhatsApp: unreached, not an expired QR', async () => {
    const refused = await openFake({ linked: false });
    await refused.fake.closeWith(408, 'WebSocket Error (connect ECONNREFUSED 127.0.0.1:1)');
    expect(refused.events).toEqual([
      { type: 'closed', code: 408, reason: 'WebSocket Error (connect ECONNREFUSED 127.0.0.1:1)', qrExpired: false, authFailure: false, unreached: true },
    ]);
    // A TLS error is a socket error too (Baileys gives it 500); an answer of the channel is not.
    const tls = await openFake({ linked: false });
    await tls.fake.closeWith(500, 'WebSocket Error (self-signed certificate)');
    expect(tls.events.at(-1)).toMatchObject({ code: 500, unreached: true });
    for (const [code, message] of [
      [428, 'Connection Closed'],
      [503, 'Stream Errored (unavailable)'],
      [403, 'Connection Failure'],
    ] as const) {
      const answered = await openFake({ linked: false });
      await answered.fake.closeWith(code, message);
      expect(answered.events.at(-1)).not.toHaveProperty('unreached');
    }

    // Once a code was shown, a 408 is its expiry, whatever its text.
    const shown = await openFake({ linked: false });
    shown.fake.ev.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#only' });
    await shown.fake.closeWith(408, 'Connection was lost');
    expect(shown.events.at(-1)).toEqual({ type: 'closed', code: 408, reason: 'Connection was lost', qrExpired: true, authFailure: false });

    // A linked number that cannot reach WhatsApp is a lost connection (backoff), never "unreached".
    const auth = new MemoryScanAuth();
    await auth.writeCreds(JSON.stringify({ me: { id: `${OWN_PHONE}:7@s.whatsapp.net` } }, BufferJSON.replacer));
    const linked = await openFake({ auth });
    await linked.fake.closeWith(408, 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)');
    expect(linked.events).toEqual([
      { type: 'closed', code: 408, reason: 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)', qrExpired: false, authFailure: false },
    ]);
  });

  it('saves the creds on every creds.update, in order', async () => {
    const { fake, auth } = await openFake({ linked: false });
    fake.ev.emit('creds.update', { me: { id: `${OWN_PHONE}:7@s.whatsapp.net`, name: 'Shop' } });
    fake.ev.emit('creds.update', { me: { id: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid`, name: 'Shop' } });
    await settle();
    const saved = JSON.parse((await auth.readCreds())!, BufferJSON.reviver);
    expect(saved.me).toEqual({ id: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid`, name: 'Shop' });
    expect(Buffer.isBuffer(saved.noiseKey.private)).toBe(true);
  });

  it('reports the close only once the creds are saved, so a 515 reconnect reads the new login', async () => {
    const auth = new MemoryScanAuth();
    const { fake, events } = await openFake({ auth, linked: false });
    let release!: () => void;
    auth.gate = new Promise((resolve) => (release = resolve));
    fake.ev.emit('creds.update', { me: { id: `${OWN_PHONE}:7@s.whatsapp.net` } });
    await fake.closeWith(515, 'Stream Errored (restart required)');
    await settle();
    expect(events).toEqual([]);
    release();
    await settle();
    expect(events).toEqual([{ type: 'closed', code: 515, reason: 'Stream Errored (restart required)', qrExpired: false, authFailure: false }]);
    expect(JSON.parse((await auth.readCreds())!).me.id).toBe(`${OWN_PHONE}:7@s.whatsapp.net`);
  });

  it('ends the session with authFailure when a key write fails, logs it, and the write still rejects', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const auth = new MemoryScanAuth();
    const { fake, events } = await openFake({ auth });
    auth.failWith = new Error('connection to database lost');
    await expect(fake.config.auth.keys.set({ session: { [`${PEER_LID}_1.0`]: Buffer.from('record') } })).rejects.toThrow('connection to database lost');
    await settle();
    expect(fake.ended).toHaveLength(1);
    expect(events).toEqual([
      { type: 'closed', code: 500, reason: 'auth state could not be saved: connection to database lost', qrExpired: false, authFailure: true },
    ]);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: auth.failWith }), 'scan auth state could not be saved; the session is ended');
  });

  it('marks a key write that failed on an unreachable store (Postgres down) as storeUnavailable', async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const auth = new MemoryScanAuth();
    const { fake, events } = await openFake({ auth });
    auth.failWith = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(fake.config.auth.keys.set({ session: { [`${PEER_LID}_1.0`]: Buffer.from('record') } })).rejects.toThrow('ECONNREFUSED');
    await settle();
    expect(events).toEqual([
      {
        type: 'closed',
        code: 500,
        reason: 'auth state could not be saved: connect ECONNREFUSED 127.0.0.1:5432',
        qrExpired: false,
        authFailure: true,
        storeUnavailable: true,
      },
    ]);
  });

  it('ends the session with authFailure when saving the creds fails', async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const auth = new MemoryScanAuth();
    const { fake, events } = await openFake({ auth });
    auth.failWith = new Error('disk full');
    fake.ev.emit('creds.update', { nextPreKeyId: 813 });
    await settle();
    await settle();
    expect(events).toEqual([{ type: 'closed', code: 500, reason: 'auth state could not be saved: disk full', qrExpired: false, authFailure: true }]);
  });

  it('reads keys with one storage read per keys.get and revives them', async () => {
    const { fake, auth } = await openFake();
    await fake.config.auth.keys.set({ 'lid-mapping': { [OWN_PHONE]: OWN_LID }, 'device-list': { [OWN_PHONE]: ['0', '7'] } });
    auth.reads.length = 0;
    const keys = fake.config.auth.keys;
    // What was just written is answered by Baileys' cacheable store; the rest in one read.
    expect(await keys.get('device-list', [OWN_PHONE, 'nobody'])).toEqual({ [OWN_PHONE]: ['0', '7'] });
    await keys.get('session', ['a', 'b', 'c']);
    expect(auth.reads).toEqual([
      { type: 'device-list', ids: ['nobody'] },
      { type: 'session', ids: ['a', 'b', 'c'] },
    ]);
    // Once the socket is gone its cache is dropped, key material included.
    await fake.closeWith(428, 'Connection Terminated');
    await keys.get('device-list', [OWN_PHONE]);
    expect(auth.reads.at(-1)).toEqual({ type: 'device-list', ids: [OWN_PHONE] });
  });

  it('sends text, images and documents as Baileys content and returns the message id', async () => {
    const { fake, socket } = await openFake();
    // The sender of what this socket sends is the linked number (its jid without a device part).
    expect(await socket.send(`${PEER_LID}@lid`, { type: 'text', body: 'hello' })).toEqual({ externalId: '3EB0OUT1', senderJid: `${OWN_PHONE}@s.whatsapp.net` });
    const data = Buffer.from('%PDF-1.7');
    await socket.send('120363000000000000@g.us', { type: 'document', data, mimeType: 'application/pdf', fileName: 'offer.pdf', caption: 'the offer' });
    await socket.send(`${PEER_LID}@lid`, { type: 'image', data, mimeType: 'image/png', fileName: 'a.png', caption: '' });
    expect(fake.sent).toEqual([
      // Never a link preview: Baileys would fetch the text's URLs itself, unguarded.
      { jid: `${PEER_LID}@lid`, content: { text: 'hello', linkPreview: null } },
      { jid: '120363000000000000@g.us', content: { document: data, mimetype: 'application/pdf', fileName: 'offer.pdf', caption: 'the offer' } },
      { jid: `${PEER_LID}@lid`, content: { image: data, mimetype: 'image/png', caption: undefined } },
    ]);
  });

  it('answers a send on a closed connection with ScanNotConnectedError, and passes other errors on', async () => {
    const { fake, socket } = await openFake();
    fake.sendError = new Boom('Connection Closed', { statusCode: 428 });
    await expect(socket.send(`${PEER_LID}@lid`, { type: 'text', body: 'x' })).rejects.toBeInstanceOf(ScanNotConnectedError);
    fake.sendError = new Boom('not-acceptable', { statusCode: 406 });
    await expect(socket.send(`${PEER_LID}@lid`, { type: 'text', body: 'x' })).rejects.toThrow('not-acceptable');
  });

  it('marks messages read, logs out with a 401 close, and closes without one', async () => {
    const { fake, socket, events } = await openFake();
    await socket.markRead([
      { chatJid: `${PEER_LID}@lid`, externalId: 'IN1', participant: null },
      { chatJid: '120363000000000000@g.us', externalId: 'IN2', participant: `${PEER_LID}@lid` },
    ]);
    expect(fake.read).toEqual([
      [
        { remoteJid: `${PEER_LID}@lid`, id: 'IN1', participant: undefined, fromMe: false },
        { remoteJid: '120363000000000000@g.us', id: 'IN2', participant: `${PEER_LID}@lid`, fromMe: false },
      ],
    ]);
    await socket.logout();
    expect(fake.loggedOut).toBe(true);
    expect(events).toEqual([{ type: 'closed', code: 401, reason: 'Intentional Logout', qrExpired: false, authFailure: false }]);

    const other = await openFake();
    other.socket.close();
    await settle();
    expect(other.fake.ended).toEqual([undefined]);
    expect(other.events).toEqual([{ type: 'closed', code: 428, reason: 'connection closed', qrExpired: false, authFailure: false }]);
  });

  it('answers resend requests from the message store (text only)', async () => {
    const { fake, stored } = await openFake();
    stored.set(`${PEER_LID}@lid/OUT1`, { type: 'text', content: 'the original text' });
    stored.set(`${PEER_LID}@lid/OUT2`, { type: 'image', content: 'caption' });
    const getMessage = fake.config.getMessage!;
    expect(await getMessage({ remoteJid: `${PEER_LID}@lid`, id: 'OUT1', fromMe: true })).toEqual({ conversation: 'the original text' });
    expect(await getMessage({ remoteJid: `${PEER_LID}@lid`, id: 'OUT2', fromMe: true })).toBeUndefined();
    expect(await getMessage({ remoteJid: `${PEER_LID}@lid`, id: 'unknown', fromMe: true })).toBeUndefined();
  });

  it('keeps group metadata for sends, refreshed by group events', async () => {
    const { fake } = await openFake();
    const cached = fake.config.cachedGroupMetadata!;
    const group = '120363000000000000@g.us';
    expect(await cached(group)).toMatchObject({ id: group, subject: 'Team' });
    expect(await cached(group)).toMatchObject({ id: group, subject: 'Team' });
    expect(fake.groupQueries).toEqual([group]);
    fake.ev.emit('groups.update', [{ id: group, subject: 'Team (renamed)' }]);
    await settle();
    expect(await cached(group)).toMatchObject({ subject: 'Team (renamed)' });
    fake.ev.emit('group-participants.update', { id: group, author: `${PEER_LID}@lid`, participants: [{ id: `${OWN_LID}@lid` }], action: 'add' });
    await settle();
    await cached(group);
    expect(fake.groupQueries).toEqual([group, group]);
  });

  it('delivers nothing after the close', async () => {
    const { fake, events } = await openFake();
    await fake.closeWith(503, 'Stream Errored (unavailable)');
    fake.ev.emit('connection.update', { qr: 'late' });
    expect(events.map((e: ScanEvent) => e.type)).toEqual(['closed']);
  });
});

describe('Baileys scan driver: the real socket', () => {
  let server: Server | undefined;
  const sockets: Duplex[] = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it('connects to WA_WEBSOCKET_URL without fetching a version, and reports the close', async () => {
    const upgrades: string[] = [];
    server = createServer();
    // Accepts the WebSocket handshake, then closes at once, as a server refusing the client would.
    server.on('upgrade', (req, socket) => {
      upgrades.push(req.url ?? '');
      sockets.push(socket);
      const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.end(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetchSpy = jest.spyOn(globalThis, 'fetch');

    const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', WA_WEBSOCKET_URL: `ws://127.0.0.1:${port}/ws/chat` }));
    const events: ScanEvent[] = [];
    const closed = new Promise<void>((resolve) => {
      void driver.open({
        workspaceId: '00000000-0000-4000-8000-000000000002',
        auth: new MemoryScanAuth(),
        getMessage: async () => undefined,
        listener: (event) => {
          events.push(event);
          if (event.type === 'closed') resolve();
        },
      });
    });
    await closed;
    expect(upgrades).toEqual(['/ws/chat']);
    expect(events).toEqual([expect.objectContaining({ type: 'closed', authFailure: false, qrExpired: false })]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
