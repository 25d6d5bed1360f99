import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { MessageUpdatesService } from '../../src/modules/inbox/messages/message-updates.service.js';
import { InboxFactories, messageId, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A lone surrogate (ill-formed UTF-16, as a peer's client may send) in a text column is stored as
// U+FFFD, but jsonb refuses the whole document: a poll option or a contact's name holding one
// would lose its message, and in a group commit fail the statement of every message beside it.
describe('inbox ingest: lone surrogates in a message’s details', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let ingest: InboxIngestService;
  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    ingest = t.app.get(InboxIngestService);
  });
  afterAll(async () => {
    await t?.close();
  });

  const poll = (phone: string): InboundMessage =>
    inbox.inbound({
      phone,
      type: 'poll',
      content: 'Lunch?',
      details: { poll: { question: 'Lunch \uD83D?', options: ['pizza \uD800', 'sushi'], multiple: false } },
    });
  const card = (phone: string): InboundMessage =>
    inbox.inbound({
      phone,
      type: 'contacts',
      content: 'Ada',
      details: { contacts: [{ name: 'Ada \uDC00Lovelace', phones: ['4915112345678'], vcard: 'BEGIN:VCARD\nFN:Ada \uDC00\nEND:VCARD' }] },
    });
  const storedDetails = async (workspaceId: string, externalId: string): Promise<unknown> =>
    (
      (await t.dataSource.query('SELECT details FROM messages WHERE workspace_id = $1 AND external_id = $2', [workspaceId, externalId])) as {
        details: unknown;
      }[]
    )[0]?.details;
  const POLL = { poll: { question: 'Lunch \uFFFD?', options: ['pizza \uFFFD', 'sushi'], multiple: false } };
  const CARD = { contacts: [{ name: 'Ada \uFFFDLovelace', phones: ['4915112345678'], vcard: 'BEGIN:VCARD\nFN:Ada \uFFFD\nEND:VCARD' }] };

  it('stores a poll option and a contact name holding one (as U+FFFD), message by message', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const [first, second] = [poll(phone), card(phone)];
    const results = [await ingest.ingest(ws.id, first, { hooks: false }), await ingest.ingest(ws.id, second, { hooks: false })];
    expect(results.map((r) => r.created)).toEqual([true, true]);
    expect(await storedDetails(ws.id, first.externalId)).toEqual(POLL);
    expect(await storedDetails(ws.id, second.externalId)).toEqual(CARD);
    // The caller gets the message as stored.
    expect(results.map((r) => r.message.details)).toEqual([POLL, CARD]);
  });

  it('stores them in a group commit, and the messages beside them too', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone, content: 'known chat' });
    const plain = inbox.inbound({ phone, content: 'plain' });
    const inputs = [inbox.inbound({ phone, content: 'alone' }), poll(phone), plain, card(phone)];
    // The first starts alone on the idle service; the three after it form one group.
    const results = await Promise.all(inputs.map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(results.map((r) => r.created)).toEqual([true, true, true, true]);
    expect(await storedDetails(ws.id, inputs[1]!.externalId)).toEqual(POLL);
    expect(await storedDetails(ws.id, inputs[3]!.externalId)).toEqual(CARD);
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(5);
  });

  it('a history batch stores them too', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const inputs = [poll(phone), card(phone)];
    await ingest.ingestBatch(ws.id, inputs);
    expect(await storedDetails(ws.id, inputs[0]!.externalId)).toEqual(POLL);
    expect(await storedDetails(ws.id, inputs[1]!.externalId)).toEqual(CARD);
  });

  it('a reaction or edit holding one waits for its message and applies (its payload is jsonb too)', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const jid = `${phone}@s.whatsapp.net`;
    const from = { chatJid: jid, senderJid: jid, fromMe: false };
    const updates = t.app.get(MessageUpdatesService);
    const target = messageId();
    await updates.react(ws.id, 'scan', { ...from, targetExternalId: target, emoji: '\uD83D' });
    await updates.edit(ws.id, 'scan', { ...from, targetExternalId: target, content: 'fixed \uDE00' });
    expect(await inbox.count('pending_message_updates WHERE workspace_id = $1', [ws.id])).toBe(2);
    await inbox.message(ws.id, { phone, externalId: target, content: 'teh text' });
    const deadline = Date.now() + 10_000;
    while ((await inbox.count('pending_message_updates WHERE workspace_id = $1', [ws.id])) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [row] = (await t.dataSource.query('SELECT content, reactions FROM messages WHERE workspace_id = $1 AND external_id = $2', [ws.id, target])) as {
      content: string;
      reactions: unknown[];
    }[];
    expect(row).toEqual({ content: 'fixed \uFFFD', reactions: [{ emoji: '\uFFFD', sender_jid: jid }] });
  });
});
