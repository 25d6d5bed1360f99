// The simulator's media host: HTTPS on 127.0.0.1 (a random port) with a certificate from the
// committed TEST-ONLY CA in ./certs. Linked devices upload encrypted media to it (the hosts and the
// auth token come from the `media_conn` iq) and download what contacts sent from the `url` /
// `directPath` of their messages, exactly as from WhatsApp's mmg hosts. A client trusts it by
// adding certs/ca.pem to its CAs (the service: WA_MEDIA_CA_FILE); TLS checks stay on.
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sha256 } from './media-crypto.js';

// The certificates live next to this file's source; compiled copies (npm run sim, the benchmarks)
// run from under dist/, so look upwards for the repository's test/whatsapp-sim/certs.
function certsDir(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'certs'), join(dir, 'test', 'whatsapp-sim', 'certs')]) {
      if (existsSync(join(candidate, 'ca.pem'))) return candidate;
    }
    if (dirname(dir) === dir) throw new Error('test/whatsapp-sim/certs/ca.pem not found');
  }
}
const CERTS = certsDir();

/** The test CA that signed the media host's certificate: what a client must trust, in tests only. */
export const SIM_CA_FILE = join(CERTS, 'ca.pem');

/** Upload paths by media kind, as Baileys posts them (`MEDIA_PATH_MAP`). */
const UPLOAD = /^\/(mms|product)\/([a-z-]+)\/([A-Za-z0-9_-]+)$/;
const MAX_UPLOAD = 100 * 1024 * 1024;

export interface PublishedMedia {
  url: string;
  directPath: string;
}

export class MediaHost {
  /** Encrypted files by path (without the query string). */
  private readonly files = new Map<string, Buffer>();
  /** The upload token `media_conn` hands out. */
  readonly auth = randomBytes(24).toString('base64url');
  uploads = 0;
  downloads = 0;

  private constructor(private readonly server: Server) {}

  static async start(host = '127.0.0.1'): Promise<MediaHost> {
    const server = createServer({ key: readFileSync(join(CERTS, 'media-host-key.pem')), cert: readFileSync(join(CERTS, 'media-host.pem')) });
    const media = new MediaHost(server);
    server.on('request', (req, res) => void media.handle(req, res));
    server.listen(0, host);
    await once(server, 'listening');
    return media;
  }

  /** `host:port`, as `media_conn` announces it and Baileys puts it in `https://<hostname>/…`. */
  get hostname(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `${address}:${port}`;
  }

  /** Stores an encrypted file and answers where it can be fetched (as an upload's answer would). */
  publish(enc: Buffer): PublishedMedia {
    const directPath = `/v/t62.7118-24/${randomInt(1e9, 1e10)}_${randomInt(1e9, 1e10)}_n.enc?ccb=11-4&oh=${randomBytes(12).toString('base64url')}&oe=${Math.floor(
      Date.now() / 1000 + 14 * 86400,
    )
      .toString(16)
      .toUpperCase()}`;
    this.files.set(directPath.split('?')[0]!, enc);
    return { url: `https://${this.hostname}${directPath}`, directPath };
  }

  /** An uploaded or published file by its direct path or URL (query ignored). */
  file(pathOrUrl: string): Buffer | undefined {
    const path = pathOrUrl.startsWith('https://') ? new URL(pathOrUrl).pathname : pathOrUrl.split('?')[0]!;
    return this.files.get(path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `https://${this.hostname}`);
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      if (req.method === 'GET') {
        const file = this.files.get(url.pathname);
        if (!file) return reply(404, { error: 'not found' });
        this.downloads += 1;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length }).end(file);
        return;
      }
      const upload = req.method === 'POST' ? UPLOAD.exec(url.pathname) : null;
      if (!upload) return reply(404, { error: 'not found' });
      if (url.searchParams.get('auth') !== this.auth) return reply(401, { error: 'bad auth token' });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_UPLOAD) return reply(413, { error: 'too large' });
        chunks.push(chunk as Buffer);
      }
      const body = Buffer.concat(chunks);
      // The path names the file by the SHA-256 of what is uploaded (base64url, no padding).
      if (sha256(body).toString('base64url') !== upload[3]) return reply(400, { error: 'fileEncSha256 mismatch' });
      this.uploads += 1;
      const { url: fileUrl, directPath } = this.publish(body);
      reply(200, { url: fileUrl, direct_path: directPath });
    } catch (error) {
      reply(500, { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
