import { expect } from '@jest/globals';
import { type ConnectedWorkspace, type MetaTestApp, metaMessages, newPhone, startConversation } from './meta-support.js';

type Json = Record<string, unknown>;

/** The send tests' vocabulary: a send, the provider's view of the last one, a fresh conversation, and a refusal that left nothing behind. */
export function sendHelpers(m: () => MetaTestApp) {
  const bearer = (w: ConnectedWorkspace) => ({ Authorization: `Bearer ${w.key}` });
  const post = (w: ConnectedWorkspace, conversationId: string, body: Json) =>
    m().t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w)).send(body);

  /** What the last send asked the provider, without the recipient part every send has. */
  const lastSent = (w: ConnectedWorkspace): Json => {
    const { messaging_product: _product, recipient_type: _type, to: _to, ...rest } = m().graph.sent(w.phoneNumberId).at(-1)!;
    return rest;
  };

  /** A conversation with a new person, its first message sent, and the fake's log cleared. */
  async function conversationWith(w: ConnectedWorkspace, phone = newPhone()): Promise<{ conversationId: string; phone: string; firstWamid: string }> {
    const { conversationId, wamid: firstWamid } = await startConversation(m(), w, phone);
    m().graph.reset();
    return { conversationId, phone, firstWamid };
  }

  /** A 400 with exactly `error`, with nothing stored and nothing sent or uploaded. */
  async function refused(w: ConnectedWorkspace, conversationId: string, body: Json, error: string): Promise<void> {
    const before = (await metaMessages(m().t, w.workspaceId)).length;
    const requests = m().graph.received({ method: 'POST' }).length;
    const res = await post(w, conversationId, body);
    expect([res.status, res.body]).toEqual([400, { error }]);
    expect((await metaMessages(m().t, w.workspaceId)).length).toBe(before);
    expect(m().graph.received({ method: 'POST' }).length).toBe(requests);
  }

  return { bearer, post, lastSent, conversationWith, refused };
}
