import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BufferJSON, encryptedStream } from '@whiskeysockets/baileys';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { LazyBaileysScanDriver } from '../../src/modules/chat/driver/baileys/lazy-baileys-scan.driver.js';

/**
 * Media comes from WhatsApp's media hosts encrypted with the message's media key. A loopback
 * HTTP host serves a file encrypted exactly as WhatsApp does (Baileys' own `encryptedStream`),
 * and the driver fetches and decrypts it from nothing but the message's media ref.
 */
describe('Baileys scan driver: media download', () => {
  let server: Server;
  let baseUrl: string;
  const files = new Map<string, Buffer>();
  // As ChatModule binds it: Baileys loaded on the first call.
  const driver = new LazyBaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent' }));

  beforeAll(async () => {
    server = createServer((req, res) => {
      const file = files.get(req.url ?? '');
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function host(path: string, plain: Buffer, kind: 'image' | 'document'): Promise<Buffer> {
    const encrypted = await encryptedStream(plain, kind);
    files.set(path, await readFile(encrypted.encFilePath));
    await rm(encrypted.encFilePath, { force: true });
    return encrypted.mediaKey;
  }

  it('downloads and decrypts a document from its media ref', async () => {
    const plain = Buffer.from(`%PDF-1.7 ${'x'.repeat(70_000)} %%EOF`);
    const mediaKey = await host('/doc.enc', plain, 'document');
    const ref = JSON.stringify({ kind: 'document', mediaKey, directPath: null, url: `${baseUrl}/doc.enc` }, BufferJSON.replacer);
    expect((await driver.downloadMedia(ref)).equals(plain)).toBe(true);
  });

  it('fails, rather than returning garbage, when the key does not match the file', async () => {
    await host('/img.enc', Buffer.from('an image'), 'image');
    const ref = JSON.stringify({ kind: 'image', mediaKey: Buffer.alloc(32, 1), directPath: null, url: `${baseUrl}/img.enc` }, BufferJSON.replacer);
    await expect(driver.downloadMedia(ref)).rejects.toThrow();
  });

  it('refuses a ref it did not make', async () => {
    await expect(driver.downloadMedia(JSON.stringify({ kind: 'video', url: `${baseUrl}/x` }))).rejects.toThrow('unrecognised media reference');
  });
});
