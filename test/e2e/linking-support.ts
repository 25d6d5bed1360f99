// Support for the linking tests (issue 37): the Console's pairing-code request, and the live
// `session.updated` events of a workspace.
import type supertest from 'supertest';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import type { E2eWorkspace, Json } from './e2e-support.js';

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
