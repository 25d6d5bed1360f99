import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type InboxFactories, messageId, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

/**
 * A reply's link to the message it quotes (`quoted_id`, issue 36) whatever the order the two
 * arrive in: within one history chunk, a reply stored before its quoted message (live or in an
 * earlier chunk), and never to a message of another conversation.
 */
describe('replies: the link to the quoted message', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    ({ t, inbox } = await createInboxTestApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  async function setup() {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    return { ws: workspace.id, caller: { key } as Caller };
  }

  interface Listed {
    id: string;
    chat_message_id: string;
    quoted_message_id: string;
    quoted_id: string | null;
  }

  /** The conversation's messages as the API lists them, by channel id. */
  async function listed(caller: Caller, conversationId: string): Promise<Map<string, Listed>> {
    const res = await call(t, caller, 'get', `/api/conversations/${conversationId}/messages?limit=100`);
    expect(res.status).toBe(200);
    return new Map((res.body.messages as Listed[]).map((m) => [m.chat_message_id, m]));
  }

  /** The stored link of a message (by channel id). */
  async function storedLink(ws: string, externalId: string): Promise<string | null> {
    const rows: { quoted_id: string | null }[] = await t.dataSource.query('SELECT quoted_id FROM messages WHERE workspace_id = $1 AND external_id = $2', [
      ws,
      externalId,
    ]);
    return rows[0]!.quoted_id;
  }

  const conversationOf = async (ws: string, phone: string): Promise<string> =>
    (await t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1 AND chat_jid = $2', [ws, `${phone}@s.whatsapp.net`]))[0].id as string;

  it('links a history reply to a message of the same batch, whichever of the two comes first in it', async () => {
    const { ws, caller } = await setup();
    const phone = randomPhone();
    const base = Date.now() - 3_600_000;
    const [asked, answered, later, laterReply] = [messageId(), messageId(), messageId(), messageId()];
    const result = await inbox.ingest.ingestBatch(ws, [
      inbox.inbound({ phone, externalId: asked, content: 'what time?', timestamp: new Date(base) }),
      inbox.inbound({ phone, externalId: answered, content: 'at noon', quotedExternalId: asked, timestamp: new Date(base + 1000) }),
      // History comes newest first as often as not: the reply ahead of the message it quotes.
      inbox.inbound({ phone, externalId: laterReply, content: 'yes, that one', quotedExternalId: later, timestamp: new Date(base + 3000) }),
      inbox.inbound({ phone, externalId: later, content: 'this one?', timestamp: new Date(base + 2000) }),
    ]);
    expect(result).toMatchObject({ inserted: 4 });

    const messages = await listed(caller, await conversationOf(ws, phone));
    expect(messages.get(answered)).toMatchObject({ quoted_message_id: asked, quoted_id: messages.get(asked)!.id });
    expect(messages.get(laterReply)).toMatchObject({ quoted_message_id: later, quoted_id: messages.get(later)!.id });
    // Stored, not only found when read.
    expect(await storedLink(ws, answered)).toBe(messages.get(asked)!.id);
    expect(await storedLink(ws, laterReply)).toBe(messages.get(later)!.id);
    expect(messages.get(asked)!.quoted_id).toBeNull();
  });

  it('shows the link of a history reply whose quoted message came in a later batch', async () => {
    const { ws, caller } = await setup();
    const phone = randomPhone();
    const base = Date.now() - 3_600_000;
    const [asked, answered] = [messageId(), messageId()];
    await inbox.ingest.ingestBatch(ws, [
      inbox.inbound({ phone, externalId: answered, content: 'at noon', quotedExternalId: asked, timestamp: new Date(base + 1000) }),
    ]);
    const conversation = await conversationOf(ws, phone);
    expect((await listed(caller, conversation)).get(answered)).toMatchObject({ quoted_message_id: asked, quoted_id: null });

    await inbox.ingest.ingestBatch(ws, [inbox.inbound({ phone, externalId: asked, content: 'what time?', timestamp: new Date(base) })]);
    const messages = await listed(caller, conversation);
    expect(messages.get(answered)).toMatchObject({ quoted_message_id: asked, quoted_id: messages.get(asked)!.id });
  });

  it('shows the link of a live reply that arrived before the message it quotes, once that is stored', async () => {
    const { ws, caller } = await setup();
    const phone = randomPhone();
    const [asked, answered] = [messageId(), messageId()];
    const reply = await inbox.message(ws, { phone, externalId: answered, content: 'at noon', quotedExternalId: asked });
    expect(reply.message).toMatchObject({ quotedExternalId: asked, quotedId: null });
    expect((await listed(caller, reply.conversation.id)).get(answered)).toMatchObject({ quoted_message_id: asked, quoted_id: null });

    const question = await inbox.message(ws, { phone, externalId: asked, content: 'what time?', timestamp: new Date(Date.now() - 60_000) });
    expect((await listed(caller, reply.conversation.id)).get(answered)).toMatchObject({ quoted_message_id: asked, quoted_id: question.message.id });
  });

  it('never links a message of another conversation, on any path (live alone, live grouped, history, when read)', async () => {
    const { ws, caller } = await setup();
    const [elsewhere, here] = [randomPhone(), randomPhone()];
    const other = messageId();
    await inbox.message(ws, { phone: elsewhere, externalId: other, content: 'in another chat' });
    await inbox.message(ws, { phone: here, content: 'first' });

    const alone = await inbox.message(ws, { phone: here, content: 'lone reply', quotedExternalId: other });
    // Two callers in the same turn commit as one group (the grouped path).
    const grouped = await Promise.all([
      inbox.message(ws, { phone: here, content: 'grouped reply', quotedExternalId: other }),
      inbox.message(ws, { phone: randomPhone(), content: 'someone else' }),
    ]);
    const history = messageId();
    await inbox.ingest.ingestBatch(ws, [inbox.inbound({ phone: here, externalId: history, content: 'history reply', quotedExternalId: other })]);

    const ids = [alone.message.externalId!, grouped[0].message.externalId!, history];
    expect(await Promise.all(ids.map((id) => storedLink(ws, id)))).toEqual([null, null, null]);
    const messages = await listed(caller, alone.conversation.id);
    for (const id of ids) expect(messages.get(id)).toMatchObject({ quoted_message_id: other, quoted_id: null });
  });
});
