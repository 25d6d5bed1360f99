// Signal key material never reaches the process output: the sanitiser (stripKeyMaterial) on
// records shaped like libsignal's sessions, and the console guard on the console calls libsignal
// really makes when a contact's session is replaced. The whole service is checked end to end in
// test/e2e/scan-channel-signal-logs.spec.ts.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { installConsoleGuard } from '../../src/infra/logging/console-guard.js';
import { KEY_MATERIAL_FIELDS, stripKeyMaterial } from '../../src/infra/logging/key-material.js';
import { createRootLogger } from '../../src/infra/logging/logging.module.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import { fakeSocketFactory } from '../support/fake-baileys-socket.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';
import { SignalPeer, type DeviceBundle } from '../whatsapp-sim/signal-peer.js';

const KEY_NAMES = ['privKey', 'pubKey', 'rootKey', 'chainKey', 'baseKey'];

const bytes = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);

/** A session as libsignal keeps it in memory (SessionEntry): Buffers everywhere a key is. */
function sessionShaped(): Record<string, unknown> {
  const ratchetKey = bytes(33, 0x05);
  return {
    registrationId: 4242,
    currentRatchet: {
      ephemeralKeyPair: { pubKey: bytes(33, 0xa1), privKey: bytes(32, 0xa2) },
      lastRemoteEphemeralKey: bytes(33, 0xa3),
      previousCounter: 7,
      rootKey: bytes(32, 0xa4),
    },
    indexInfo: {
      baseKey: bytes(33, 0xa5),
      baseKeyType: 2,
      closed: -1,
      used: 1_700_000_000_000,
      created: 1_699_999_000_000,
      remoteIdentityKey: bytes(33, 0xa6),
    },
    pendingPreKey: { signedKeyId: 1, preKeyId: 31, baseKey: bytes(33, 0xa7) },
    _chains: {
      [ratchetKey.toString('base64')]: {
        chainKey: { counter: 3, key: bytes(32, 0xa8) },
        chainType: 1,
        messageKeys: { 1: bytes(32, 0xa9), 2: bytes(32, 0xaa) },
      },
    },
  };
}

/** Every way a byte string can show in text: hex (plain and as util.inspect spaces it), base64, decimal JSON. */
function renderings(key: Buffer): string[] {
  return [key.toString('hex'), key.toString('hex').match(/../g)!.slice(0, 12).join(' '), key.toString('base64'), key.subarray(0, 12).join(',')];
}

function expectNoKeyMaterial(text: string, keys: Buffer[] = []): void {
  for (const name of KEY_NAMES) expect(text).not.toContain(name);
  expect(text).not.toContain('<Buffer');
  expect(text).not.toContain('"type":"Buffer"');
  for (const key of keys) for (const form of renderings(key)) expect(text).not.toContain(form);
}

describe('stripKeyMaterial', () => {
  it('drops the key fields of a session record, at every depth, and keeps the rest', () => {
    const record = { version: 'v1', _sessions: { [bytes(33, 0x11).toString('base64')]: sessionShaped() } };
    const stripped = stripKeyMaterial(record);
    const text = JSON.stringify(stripped);
    expectNoKeyMaterial(text, [bytes(32, 0xa2), bytes(32, 0xa4), bytes(33, 0xa5), bytes(32, 0xa8), bytes(33, 0x05), bytes(33, 0x11)]);
    expect(text).not.toMatch(/messageKeys|remoteIdentityKey|lastRemoteEphemeralKey|ephemeralKeyPair/);
    expect(stripped).toEqual({
      version: 'v1',
      _sessions: {
        '[key 1]': {
          registrationId: 4242,
          currentRatchet: { previousCounter: 7 },
          indexInfo: { closed: -1, used: 1_700_000_000_000, created: 1_699_999_000_000 },
          pendingPreKey: { signedKeyId: 1, preKeyId: 31 },
          _chains: { '[key 1]': { chainType: 1 } },
        },
      },
    });
  });

  it('replaces Buffers, typed arrays and serialized Buffers with their length', () => {
    const stripped = stripKeyMaterial({
      frame: bytes(5, 1),
      view: new Uint8Array(16),
      raw: new ArrayBuffer(8),
      json: JSON.parse(JSON.stringify(bytes(4, 2))),
      b64: { type: 'Buffer', data: bytes(32, 3).toString('base64') },
      list: [bytes(2, 0), 'text'],
    });
    expect(stripped).toEqual({ frame: '[bytes 5]', view: '[bytes 16]', raw: '[bytes 8]', json: '[bytes 4]', b64: '[bytes 32]', list: ['[bytes 2]', 'text'] });
  });

  it('matches key field names whatever their case, Baileys credentials included', () => {
    const creds = {
      noiseKey: { private: bytes(32, 1), public: bytes(32, 2) },
      signedIdentityKey: { private: bytes(32, 3) },
      advSecretKey: 'c2VjcmV0',
      PRIVKEY: 1,
      registrationId: 9,
      me: { id: '1555@s.whatsapp.net' },
    };
    expect(stripKeyMaterial(creds)).toEqual({ registrationId: 9, me: { id: '1555@s.whatsapp.net' } });
    expect(KEY_MATERIAL_FIELDS).toEqual(expect.arrayContaining(KEY_NAMES));
  });

  it('masks <Buffer …> dumps inside strings', () => {
    expect(stripKeyMaterial('rootKey: <Buffer 05 1a ff 00 ... 28 more bytes>, counter 3')).toBe('rootKey: [bytes], counter 3');
  });

  it('returns what holds no key material unchanged, the same object', () => {
    const plain = { id: 'ABC', nested: { list: [1, 'two', { three: 3 }], at: new Date(0) } };
    expect(stripKeyMaterial(plain)).toBe(plain);
    const error = new Error('boom');
    expect(stripKeyMaterial(error)).toBe(error);
    expect(stripKeyMaterial('just text')).toBe('just text');
    expect(stripKeyMaterial(42)).toBe(42);
  });

  it('strips the fields of an error but keeps its name, message and stack', () => {
    const error = Object.assign(new TypeError('bad session'), { session: sessionShaped() });
    const stripped = stripKeyMaterial(error) as Error & { session: Record<string, unknown> };
    expect(stripped).toBeInstanceOf(Error);
    expect([stripped.name, stripped.message, stripped.stack]).toEqual([error.name, error.message, error.stack]);
    expect(stripped.session.registrationId).toBe(4242);
    expectNoKeyMaterial(JSON.stringify(stripped.session));
  });

  it('survives cycles, depth, size, throwing getters and revoked proxies', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(stripKeyMaterial(cyclic)).toEqual({ name: 'loop', self: '[circular]' });

    let deep: Record<string, unknown> = { privKey: bytes(32, 1) };
    for (let i = 0; i < 50; i++) deep = { next: deep };
    expect(JSON.stringify(stripKeyMaterial(deep))).toContain('[depth limit]');

    const long = Array.from({ length: 500 }, (_, i) => ({ i, privKey: bytes(32, i % 256) }));
    const stripped = stripKeyMaterial(long) as unknown[];
    expect(stripped).toHaveLength(101);
    expect(stripped[100]).toBe('[400 more]');
    expectNoKeyMaterial(JSON.stringify(stripped));

    const getter = Object.defineProperty({ ok: 1 }, 'bad', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect(stripKeyMaterial(getter)).toEqual({ ok: 1, bad: '[unreadable]' });

    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(stripKeyMaterial({ proxy })).toBe('[unprintable]');
  });

  it('converts Maps and Sets only when they hold key material', () => {
    const clean = new Map([['a', 1]]);
    expect(stripKeyMaterial(clean)).toBe(clean);
    expect(stripKeyMaterial(new Map<string, unknown>([['s', { rootKey: bytes(32, 1), n: 2 }]]))).toEqual({ s: { n: 2 } });
    expect(stripKeyMaterial(new Set([bytes(3, 1)]))).toEqual(['[bytes 3]']);
  });
});

/** A destination that keeps the JSON lines written to it. */
function recordingDestination(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  const written: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => void (written.push(chunk.toString('utf8')), done()) });
  const text = (): string => written.join('');
  return {
    stream,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const KEYS = { privKey: 'c2VjcmV0LXByaXY=', noiseKey: 'bm9pc2U=', ratchet: { rootKey: 'cm9vdA==', chainKey: 'Y2hhaW4=', counter: 3 } };
const KEY_VALUES = /c2VjcmV0LXByaXY=|bm9pc2U=|cm9vdA==|Y2hhaW4=/;
const REDACTED = { privKey: '[redacted]', noiseKey: '[redacted]', ratchet: { rootKey: '[redacted]', chainKey: '[redacted]', counter: 3 } };

describe('pino redaction', () => {
  it('the root logger redacts credentials and Signal key fields at the top of a line', () => {
    const out = recordingDestination();
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'debug' }), out.stream);
    logger.debug({ privKey: KEYS.privKey, noiseKey: KEYS.noiseKey, req: { headers: { authorization: 'Bearer sk_live_secret' } } }, 'keys');
    expect(out.lines()).toEqual([
      expect.objectContaining({ msg: 'keys', privKey: '[redacted]', noiseKey: '[redacted]', req: { headers: { authorization: '[redacted]' } } }),
    ]);
    expect(out.text()).not.toMatch(/c2VjcmV0LXByaXY=|bm9pc2U=|sk_live_secret/);
  });

  it('the logger Baileys is given redacts them one level down too, in its children as well', async () => {
    const out = recordingDestination();
    const factory = fakeSocketFactory();
    const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'debug', WA_LOG_LEVEL: 'debug' }), factory.make, out.stream);
    const socket = await driver.open({
      workspaceId: '00000000-0000-4000-8000-000000000077',
      auth: new MemoryScanAuth(),
      getMessage: async () => undefined,
      listener: () => undefined,
    });
    try {
      const logger = factory.sockets[0]!.config.logger!;
      logger.debug(KEYS, 'keys');
      logger.child({ class: 'SessionCipher' }).warn(KEYS, 'keys of a child');
      const lines = out.lines().filter((line) => String(line.msg).startsWith('keys'));
      expect(lines).toEqual([
        expect.objectContaining({ msg: 'keys', module: 'baileys', ...REDACTED }),
        expect.objectContaining({ msg: 'keys of a child', module: 'baileys', class: 'SessionCipher', ...REDACTED }),
      ]);
      expect(out.text()).not.toMatch(KEY_VALUES);
    } finally {
      socket.close();
    }
  });
});

type Call = [string, unknown[]];

/** A console that records what it is asked to print, installed as the global one for libsignal. */
function recordingConsole(calls: Call[]): Console {
  const record =
    (method: string) =>
    (...args: unknown[]) =>
      void calls.push([method, args]);
  return {
    log: record('log'),
    info: record('info'),
    debug: record('debug'),
    warn: record('warn'),
    error: record('error'),
    trace: record('trace'),
  } as unknown as Console;
}

describe('the console guard', () => {
  const calls: Call[] = [];
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  const debugLogger = pino({ level: 'debug' }, sink);
  const fake = recordingConsole(calls);
  let realConsole: Console;

  beforeAll(() => {
    realConsole = globalThis.console;
    globalThis.console = fake;
    installConsoleGuard(debugLogger, fake);
  });
  afterAll(() => {
    globalThis.console = realConsole;
  });
  beforeEach(() => {
    calls.length = 0;
    lines.length = 0;
    installConsoleGuard(debugLogger, fake);
  });

  /** Two Signal peers; `alice` writes to `bob` twice, starting a new session in between. */
  async function replaceSession(): Promise<{ bob: SignalPeer; keys: Buffer[] }> {
    const alice = new SignalPeer();
    const bob = new SignalPeer();
    const bundleOf = (): DeviceBundle => {
      const issued = bob.issueBundle();
      return { registrationId: issued.registrationId, identityKey: issued.identity, signedPreKey: issued.signedPreKey, preKeys: [issued.preKey] };
    };
    const first = await alice.encryptFor('bob', 1, bundleOf(), Buffer.from('hello'));
    await bob.decryptFrom('alice', 1, first.type, first.ciphertext);
    const keys = bob.sessionKeyMaterial();
    alice.reset();
    const second = await alice.encryptFor('bob', 1, bundleOf(), Buffer.from('hello again'));
    expect(second.type).toBe('pkmsg');
    expect((await bob.decryptFrom('alice', 1, second.type, second.ciphertext)).toString()).toBe('hello again');
    return { bob, keys: [...keys, ...bob.sessionKeyMaterial()] };
  }

  it("sends libsignal's session dumps to the logger at debug, without key material, and prints nothing", async () => {
    const { keys } = await replaceSession();
    expect(calls).toEqual([]);
    const closing = lines.find((line) => line.msg === 'Closing session:');
    expect(closing).toMatchObject({
      level: 20,
      source: 'libsignal',
      console: 'info',
      detail: [expect.objectContaining({ registrationId: expect.any(Number) })],
    });
    expect(lines.find((line) => line.msg === 'Closing open session in favor of incoming prekey bundle')).toMatchObject({ level: 20, console: 'warn' });
    expect(keys.length).toBeGreaterThan(5);
    expectNoKeyMaterial(JSON.stringify(lines), keys);
  });

  it('drops those lines entirely when the logger is above debug', async () => {
    installConsoleGuard(pino({ level: 'info' }, sink), fake);
    await replaceSession();
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("routes Baileys' and whatsapp-rust-bridge's console calls the same way", async () => {
    const root = mkdtempSync(join(tmpdir(), 'console-guard-'));
    for (const pkg of ['@whiskeysockets/baileys/lib', 'whatsapp-rust-bridge/dist']) {
      const dir = join(root, 'node_modules', pkg);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'talk.mjs'), 'export const talk = (value) => console.error("Error parsing group metadata:", value);\n');
      const { talk } = (await import(pathToFileURL(join(dir, 'talk.mjs')).href)) as { talk: (value: unknown) => void };
      talk({ privKey: bytes(32, 9), jid: '123@g.us' });
    }
    expect(calls).toEqual([]);
    expect(lines.map((line) => [line.source, line.console, line.msg, line.detail])).toEqual([
      ['@whiskeysockets/baileys', 'error', 'Error parsing group metadata:', [{ jid: '123@g.us' }]],
      ['whatsapp-rust-bridge', 'error', 'Error parsing group metadata:', [{ jid: '123@g.us' }]],
    ]);
  });

  it("keeps everyone else's console calls at their level, stripped of key material only", () => {
    const plain = { id: 'ABC', list: [1, 2] };
    const error = new Error('boom');
    console.log('listening', plain);
    console.error(error);
    console.warn('record', { session: sessionShaped() });
    expect(calls[0]).toEqual(['log', ['listening', plain]]);
    expect(calls[0]![1][1]).toBe(plain);
    expect(calls[1]![1][0]).toBe(error);
    expect(calls[2]![0]).toBe('warn');
    expectNoKeyMaterial(JSON.stringify(calls[2]![1]));
    expect(lines).toEqual([]);
  });

  it('wraps the console once, however often it is installed', () => {
    const before = fake.info;
    installConsoleGuard(debugLogger, fake);
    installConsoleGuard(debugLogger, fake);
    expect(fake.info).toBe(before);
    console.info('once');
    expect(calls).toEqual([['info', ['once']]]);
  });
});
