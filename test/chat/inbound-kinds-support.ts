// What the message-kind tests share: the whole app with the REAL Baileys driver, linked to the
// loopback WhatsApp simulator (media over its HTTPS host), a webhook receiver subscribed to
// `scan.chat`, and the few reads every kind is checked with: the API message, the stored row, the
// webhook and the file behind `media_url`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type supertest from 'supertest';
import type { TestApp } from '../support/test-app.js';
import { api, createE2eApp, eventually, link, messageWhen, newWorkspace, type E2eWorkspace, type Json } from '../e2e/e2e-support.js';
import { json, Receiver } from '../webhooks/webhook-support.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { storedMessage } from './inbound-support.js';

export type { Json };

export interface KindsSession {
  sim: WhatsAppSimulator;
  t: TestApp;
  ws: E2eWorkspace;
  receiver: Receiver;
  /** The linked account's number (the "phone" contacts write to). */
  phone: string;
  close(): Promise<void>;
}

/** Starts the simulator, the app and a receiver, adds a `scan.chat` webhook and links `phone`. */
export async function linkedKindsSession(phone: string): Promise<KindsSession> {
  const sim = await WhatsAppSimulator.start();
  const receiver = await Receiver.start();
  const mediaDir = await mkdtemp(join(tmpdir(), 'inbound-kinds-'));
  const t = await createE2eApp(sim, {
    env: { MEDIA_DIR: mediaDir, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms,200ms' },
  });
  const ws = await newWorkspace(t);
  const hook = await t
    .http()
    .post('/api/webhooks')
    .set('Cookie', ws.owner.cookie)
    .set('X-Tenant-ID', ws.workspaceId)
    .send({ url: receiver.url(), events: ['scan.chat'] });
  if (hook.status !== 201) throw new Error(`creating the webhook answered ${hook.status}`);
  await link(t, sim, ws, phone);
  return {
    sim,
    t,
    ws,
    receiver,
    phone,
    close: async () => {
      await t.close();
      await sim.stop();
      await receiver.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/** The `scan.chat` event of a message, once it went out. */
export function webhookFor(s: KindsSession, chatMessageId: string): Promise<Json> {
  return eventually(
    `the scan.chat of ${chatMessageId}`,
    async () =>
      s.receiver
        .at('/hook')
        .map(json)
        .find((event) => event.chat_message_id === chatMessageId),
    20_000,
  );
}

/** The API message of a message, once it is stored (with `withFile`, once its file is; and once `check` holds). */
export function apiMessage(s: KindsSession, chatMessageId: string, withFile = false, check: (m: Json) => boolean = () => true): Promise<Json> {
  return messageWhen(s.t, s.ws, chatMessageId, (m) => (!withFile || (typeof m.media_url === 'string' && m.media_url !== '')) && check(m));
}

/** The stored row of a message (every column), or undefined. */
export const storedRow = (s: KindsSession, chatMessageId: string): Promise<Record<string, unknown> | undefined> =>
  storedMessage(s.t.dataSource, s.ws.workspaceId, chatMessageId);

/** The file behind a `media_url`, as a client fetches it with the workspace's key. */
export function fetchMedia(s: KindsSession, url: string): supertest.Test {
  return api(s.t, s.ws, 'get', url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

/** Waits until the linked device acknowledged `id` (it has handled the message, stored or not). */
export const acked = (s: KindsSession, id: string): Promise<void> => s.sim.waitForAck(id, s.phone);
