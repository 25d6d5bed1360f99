import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BufferJSON, downloadContentFromMessage, encryptedStream, type MediaType, toBuffer } from '@whiskeysockets/baileys';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { AddressRefusedError, useTestResolver } from '../../src/infra/net/guarded-lookup.js';
import { fixedResolver } from '../support/fixed-resolver.js';
import { LazyBaileysScanDriver } from '../../src/modules/chat/driver/baileys/lazy-baileys-scan.driver.js';
import { openFake } from './baileys-driver.helpers.js';

const files = new Map<string, Buffer>();

async function host(path: string, plain: Buffer, kind: MediaType): Promise<Buffer> {
  const encrypted = await encryptedStream(plain, kind);
  files.set(path, await readFile(encrypted.encFilePath));
  await rm(encrypted.encFilePath, { force: true });
  return encrypted.mediaKey;
}

/** Serves `files`; a path in `redirects` answers 302 to its target. */
function mediaServer(redirects: Record<string, string> = {}): Server {
  return createServer((req, res) => {
    const target = redirects[req.url ?? ''];
    if (target) return void res.writeHead(302, { Location: target }).end();
    const file = files.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
  });
}

const ref = (fields: { kind: 'image' | 'document'; mediaKey: Buffer; url: string; directPath?: string | null }): string =>
  JSON.stringify({ directPath: null, ...fields }, BufferJSON.replacer);

/**
 * Media comes from WhatsApp's media hosts encrypted with the message's media key. A loopback
 * HTTP host serves a file encrypted exactly as WhatsApp does (Baileys' own `encryptedStream`),
 * and the driver fetches and decrypts it from nothing but the message's media ref.
 */
describe('Baileys scan driver: media download', () => {
  let server: Server;
  let baseUrl: string;
  // As ChatModule binds it: Baileys loaded on the first call. The host is on 127.0.0.1: allowed.
  const driver = new LazyBaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_MEDIA_URLS: 'true' }));

  beforeAll(async () => {
    server = mediaServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('downloads and decrypts a document from its media ref', async () => {
    const plain = Buffer.from(`%PDF-1.7 ${'x'.repeat(70_000)} %%EOF`);
    const mediaKey = await host('/doc.enc', plain, 'document');
    expect((await driver.downloadMedia(ref({ kind: 'document', mediaKey, url: `${baseUrl}/doc.enc` }))).equals(plain)).toBe(true);
  });

  it('fails, rather than returning garbage, when the key does not match the file', async () => {
    await host('/img.enc', Buffer.from('an image'), 'image');
    await expect(driver.downloadMedia(ref({ kind: 'image', mediaKey: Buffer.alloc(32, 1), url: `${baseUrl}/img.enc` }))).rejects.toThrow();
  });

  it('refuses a ref it did not make', async () => {
    await expect(driver.downloadMedia(JSON.stringify({ kind: 'video', url: `${baseUrl}/x` }))).rejects.toThrow('unrecognised media reference');
  });
});

// Internet hosts cannot be served from a test: 127.0.0.2 stands in for a public address (the
// policy is told to treat it as one). 127.0.0.1, on the same port, stays a refused loopback
// address, and a listener there records every connection it gets.
const PUBLIC = '127.0.0.2';
const LOOPBACK = '127.0.0.1';
const NAMES: Record<string, string[]> = {
  'mmg.example.test': [PUBLIC],
  'internal.example.test': [LOOPBACK],
  'metadata.example.test': ['169.254.169.254'],
  // One refused address among good ones is how rebinding starts: refused outright.
  'mixed.example.test': [PUBLIC, LOOPBACK],
};
const testResolve = fixedResolver(NAMES);

describe('Baileys scan driver: media download through the address policy (ALLOW_PRIVATE_MEDIA_URLS off)', () => {
  let server: Server;
  let decoy: TcpServer;
  let port: number;
  const decoyConnections: string[] = [];
  const redirects: Record<string, string> = {};
  const driver = new LazyBaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent' }));

  beforeAll(async () => {
    for (let tries = 0; ; tries++) {
      server = mediaServer(redirects);
      await new Promise<void>((resolve) => server.listen(0, PUBLIC, resolve));
      port = (server.address() as AddressInfo).port;
      decoy = createTcpServer((socket) => {
        decoyConnections.push(`${socket.remoteAddress}`);
        socket.destroy();
      });
      const bound = await new Promise<boolean>((resolve) => {
        decoy.once('error', () => resolve(false));
        decoy.listen(port, LOOPBACK, () => resolve(true));
      });
      if (bound) break;
      await new Promise((resolve) => server.close(resolve));
      if (tries > 20) throw new Error(`no port free on both ${PUBLIC} and ${LOOPBACK}`);
    }
  });
  beforeAll(() => useTestResolver(testResolve, [PUBLIC]));
  afterAll(async () => {
    useTestResolver(null);
    await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => decoy.close(resolve))]);
  });

  it('downloads from a host that resolves to a public address, connecting to that address only', async () => {
    const plain = Buffer.from('a picture from a public media host');
    const mediaKey = await host('/public.enc', plain, 'image');
    expect((await driver.downloadMedia(ref({ kind: 'image', mediaKey, url: `http://mmg.example.test:${port}/public.enc` }))).equals(plain)).toBe(true);
    expect(decoyConnections).toEqual([]);
  });

  it('refuses a message whose url or directPath host is, or resolves to, a private or local address, without connecting', async () => {
    const mediaKey = await host('/secret.enc', Buffer.from('internal'), 'image');
    const refusals: [url: string, directPath: string | null, message: string][] = [
      [`http://127.0.0.1:${port}/secret.enc`, null, '127.0.0.1 is a loopback address'],
      // Baileys builds https://<host of url><directPath>: the host still comes from the message.
      [`https://127.0.0.1:${port}/anything`, '/secret.enc', '127.0.0.1 is a loopback address'],
      [`http://2130706433:${port}/secret.enc`, null, '127.0.0.1 is a loopback address'],
      [`http://[::ffff:127.0.0.1]:${port}/secret.enc`, null, '::ffff:7f00:1 is a loopback address'],
      [`http://localhost:${port}/secret.enc`, null, 'localhost is a loopback address'],
      [`http://internal.example.test:${port}/secret.enc`, null, 'internal.example.test resolves to 127.0.0.1, a loopback address'],
      [`https://mixed.example.test:${port}/x`, '/secret.enc', 'mixed.example.test resolves to 127.0.0.1, a loopback address'],
      ['http://metadata.example.test/latest/meta-data/', null, 'metadata.example.test resolves to 169.254.169.254, a link-local address'],
      ['http://10.0.0.1/secret.enc', null, '10.0.0.1 is a private address'],
    ];
    for (const [url, directPath, message] of refusals) {
      const error = await driver.downloadMedia(ref({ kind: 'image', mediaKey, url, directPath })).then(
        () => null,
        (e: Error) => e,
      );
      expect({ url, directPath, refused: error instanceof AddressRefusedError, message: error?.message }).toEqual({ url, directPath, refused: true, message });
    }
    expect(decoyConnections).toEqual([]);
  });

  it('gives the socket the same policy for the blobs Baileys fetches itself (history sync, app state: `config.options`)', async () => {
    const { fake } = await openFake();
    // What Baileys' downloadHistory and downloadExternalBlob do with the socket's `options`.
    const blob = (url: string, mediaKey: Buffer) =>
      downloadContentFromMessage({ mediaKey, directPath: null, url }, 'md-msg-hist', { options: fake.config.options }).then(toBuffer);
    const plain = Buffer.from('a history batch');
    const mediaKey = await host('/history.enc', plain, 'md-msg-hist');
    expect((await blob(`http://mmg.example.test:${port}/history.enc`, mediaKey)).equals(plain)).toBe(true);
    await expect(blob(`http://127.0.0.1:${port}/history.enc`, mediaKey)).rejects.toThrow('fetch failed');
    await expect(blob(`http://internal.example.test:${port}/history.enc`, mediaKey)).rejects.toThrow('fetch failed');
    expect(decoyConnections).toEqual([]);
  });

  it('refuses a redirect from a public host to a loopback address, without connecting to it', async () => {
    const mediaKey = await host('/secret-2.enc', Buffer.from('internal'), 'image');
    redirects['/moved.enc'] = `http://127.0.0.1:${port}/secret-2.enc`;
    redirects['/moved-by-name.enc'] = `http://internal.example.test:${port}/secret-2.enc`;
    for (const path of ['/moved.enc', '/moved-by-name.enc']) {
      const error = await driver.downloadMedia(ref({ kind: 'image', mediaKey, url: `http://mmg.example.test:${port}${path}` })).then(
        () => null,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(AddressRefusedError);
    }
    expect(decoyConnections).toEqual([]);
  });
});
