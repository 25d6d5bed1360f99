// Support for the linking tests (issue 37): the Console's pairing-code request, and the live
// `session.updated` events of a workspace.
import type supertest from 'supertest';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import type { RegisteredPasskey } from '../whatsapp-sim/passkey-ceremony.js';
import type { LinkedDevice } from '../whatsapp-sim/sim-model.js';
import type { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { chat, type E2eWorkspace, type Json, newWorkspace, pendingQr, statusWhen } from './e2e-support.js';

/** `POST /api/chat/pairing-code` as the Console sends it: the owner's session, a JSON body. */
export function requestPairingCode(t: TestApp, ws: E2eWorkspace, body: unknown): supertest.Test {
  return t
    .http()
    .post('/api/chat/pairing-code')
    .set('Cookie', ws.owner.cookie)
    .set('X-Tenant-ID', ws.workspaceId)
    .send(body as object);
}

/** The workspace's live stream, opened with its API key. */
export async function sessionStream(t: TestApp, ws: E2eWorkspace): Promise<SseClient> {
  return openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${ws.key}` });
}

/** The `session.updated` events a stream received, oldest first. */
export const sessionEvents = (client: SseClient): Json[] => client.events.filter((e) => e.event === 'session.updated').map((e) => dataOf(e) as Json);

/** The first QR ref of a code (Baileys puts it at the start of the payload). */
export const refOf = (code: string): string => code.slice(code.indexOf('#') + 1).split(',')[0]!;

/**
 * A gated account whose phone registered `passkey` scans the QR code of a new workspace: resolves
 * once the session waits in `passkey_required`. `linking`: the scan, settled when the ceremony ends.
 */
export async function gatedScan(
  t: TestApp,
  sim: WhatsAppSimulator,
  phone: string,
  passkey: RegisteredPasskey,
): Promise<{ ws: E2eWorkspace; linking: Promise<LinkedDevice> }> {
  const ws = await newWorkspace(t);
  sim.gateAccount(phone);
  sim.registerPasskey(phone, passkey);
  const connected = await chat(t, ws.owner, 'post', '/api/chat/connect');
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status} ${JSON.stringify(connected.body)}`);
  const qr = await pendingQr(t, ws);
  const linking = sim.scanQr(qr.code, phone);
  linking.catch(() => undefined);
  await statusWhen(t, ws, 'passkey_required', (s) => s.state === 'passkey_required', 10_000);
  return { ws, linking };
}
