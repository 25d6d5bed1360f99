import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { useTestResolver } from '../../src/infra/net/guarded-lookup.js';
import { fixedResolver } from '../support/fixed-resolver.js';
import type { TestApp } from '../support/test-app.js';
import { json, Receiver } from '../webhooks/webhook-support.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { createE2eApp, eventually, link, messageWhen, newWorkspace, type E2eWorkspace } from './e2e-support.js';

/**
 * A contact chooses where its media message says the file is (`url`, `directPath`): the real
 * Baileys driver would fetch from any host, the service's own network included. With
 * ALLOW_PRIVATE_MEDIA_URLS off (the default), a media host that is or resolves to a loopback
 * address gets no connection at all; the message is stored, and its download fails as a failed
 * download does (given up: no file, the held webhook goes out without `media_url`), at once.
 */
jest.setTimeout(60_000);

const PHONE = '15550100015';
// The attacker's name for the service's own machine.
const NAMES: Record<string, string[]> = { 'mmg.attacker.test': ['127.0.0.1'] };
const resolve = fixedResolver(NAMES);

describe('scan channel end to end: media hosts of inbound messages go through the address policy', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  let mediaDir: string;
  let receiver: Receiver;
  // A listener on loopback, standing in for an internal service: records every connection.
  let internal: Server;
  let internalPort: number;
  const connections: string[] = [];

  beforeAll(async () => {
    internal = createServer((socket) => {
      connections.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    await new Promise<void>((done) => internal.listen(0, '127.0.0.1', done));
    internalPort = (internal.address() as AddressInfo).port;
    useTestResolver(resolve);
    sim = await WhatsAppSimulator.start();
    receiver = await Receiver.start();
    mediaDir = await mkdtemp(join(tmpdir(), 'e2e-media-policy-'));
    t = await createE2eApp(sim, {
      env: {
        MEDIA_DIR: mediaDir,
        ALLOW_PRIVATE_MEDIA_URLS: 'false',
        ALLOW_HTTP_WEBHOOKS: 'true',
        ALLOW_PRIVATE_WEBHOOKS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
      },
    });
    ws = await newWorkspace(t);
    const hook = await t.http().post('/api/webhooks').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId).send({ url: receiver.url() });
    expect(hook.status).toBe(201);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    useTestResolver(null);
    await t?.close();
    await sim?.stop();
    await receiver?.close();
    await new Promise((done) => internal?.close(done));
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  it('stores images pointing at loopback hosts without connecting to them, and gives their downloads up at once', async () => {
    const from = '4915100500015';
    const directPath = '/v/t62.7118-24/11111_22222_n.enc?ccb=11-4';
    const downloadsBefore = sim.media.downloads;
    const ids = [
      // An IP literal in `url`, with a `directPath`: Baileys fetches https://127.0.0.1:<port><directPath>.
      await sim.deliverMedia({
        to: PHONE,
        from,
        name: 'Mallory',
        kind: 'image',
        mimetype: 'image/png',
        caption: 'literal',
        at: { url: `https://127.0.0.1:${internalPort}/x`, directPath },
      }),
      // A name that resolves to loopback, in `url` alone.
      await sim.deliverMedia({
        to: PHONE,
        from,
        kind: 'image',
        mimetype: 'image/png',
        caption: 'by name',
        at: { url: `http://mmg.attacker.test:${internalPort}/admin`, directPath: null },
      }),
      // The simulator's own media host is on 127.0.0.1 too: refused like any other loopback host.
      await sim.deliverMedia({ to: PHONE, from, kind: 'image', mimetype: 'image/png', caption: 'simulator host' }),
    ];

    for (const id of ids) {
      const stored = await messageWhen(t, ws, id);
      expect(stored).toMatchObject({ direction: 'inbound', message_type: 'image', mime_type: 'image/png', media_url: '' });
    }
    // Each held webhook goes out once its download is given up: without a file, well before the
    // retries of a failing host would have run out (minutes).
    const deliveries = await receiver.waitFor(ids.length, '/hook', 30_000);
    const events = deliveries.map(json).filter((event) => ids.includes(String(event.chat_message_id)));
    expect(events.map((event) => [event.content, event.media_url]).sort()).toEqual([
      ['by name', ''],
      ['literal', ''],
      ['simulator host', ''],
    ]);
    // Given up: no media reference (it holds the media key) is kept, no file written.
    await eventually('the references dropped', async () => {
      const rows: unknown[] = await t.dataSource.query('SELECT 1 FROM scan_media_refs WHERE workspace_id = $1', [ws.workspaceId]);
      return rows.length === 0;
    });
    const messages: { media_url: string }[] = await t.dataSource.query(
      'SELECT media_url FROM messages WHERE workspace_id = $1 AND external_id = ANY($2::text[])',
      [ws.workspaceId, ids],
    );
    expect(messages.map((m) => m.media_url)).toEqual(['', '', '']);
    expect(await readdir(mediaDir)).toEqual([]);

    expect(connections).toEqual([]);
    expect(sim.media.downloads).toBe(downloadsBefore);
  });
});
