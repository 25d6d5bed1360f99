import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { addWebhook, createWebhookTestApp, eventually, json, ownedWorkspace, Receiver, secretOf } from './webhook-support.js';

// The outbox under group commit: many workspaces' messages ingested at once share transactions,
// and the scan.chat hook writes all their events and deliveries in one statement per group.
describe('scan.chat events under group commit', () => {
  let s: InboundTestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('posts exactly one event per new message of every workspace, none for repeats', async () => {
    const ingest = s.t.app.get(InboxIngestService);
    const inbox = new InboxFactories(s.t.app);
    const workspaces = await Promise.all([ownedWorkspace(s.t), ownedWorkspace(s.t), ownedWorkspace(s.t)]);
    for (const owned of workspaces) await addWebhook(owned, receiver.url(`/group-${owned.workspaceId}`), { events: ['scan.chat'] });
    const calls = workspaces.flatMap((owned) => {
      const phones = [randomPhone(), randomPhone()];
      return Array.from({ length: 12 }, (_, i) => ({ workspaceId: owned.workspaceId, input: inbox.inbound({ phone: phones[i % 2], content: `w${i}` }) }));
    });
    // Every message twice (a channel redelivering), all at once.
    const results = await Promise.all([...calls, ...calls].map(({ workspaceId, input }) => ingest.ingest(workspaceId, input)));
    expect(results.filter((r) => r.created)).toHaveLength(calls.length);
    for (const owned of workspaces) {
      const path = `/group-${owned.workspaceId}`;
      const mine = calls.filter((c) => c.workspaceId === owned.workspaceId).map((c) => c.input.externalId);
      await eventually(`12 events for ${owned.workspaceId}`, async () => (receiver.at(path).length >= 12 ? true : null));
      // Give a duplicate the time to show up, then count.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(
        receiver
          .at(path)
          .map((r) => json(r).chat_message_id)
          .sort(),
      ).toEqual([...mine].sort());
    }
  });

  it('sends the bodies of a group byte for byte as written and signed: quotes, backslashes, non-ASCII, separators', async () => {
    const ingest = s.t.app.get(InboxIngestService);
    const inbox = new InboxFactories(s.t.app);
    const owned = await ownedWorkspace(s.t);
    const path = `/bytes-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['scan.chat'] });
    const secret = await secretOf(owned);
    const contents = [
      'say "hi" \\ back\\slash',
      'naïve café 日本語 🎉',
      'line\u2028sep\u2029para\ttab\nnew',
      '{"looks":["like",{"json":1}]}',
      '\u001f control \u007f',
    ];
    const phone = randomPhone();
    await inbox.message(owned.workspaceId, { phone, content: 'known chat' });
    // Called in one turn: one group (with a new chat's message, which takes the per-message path, among them).
    const inputs = contents.map((content) => inbox.inbound({ phone, content }));
    await Promise.all([
      ingest.ingest(owned.workspaceId, inbox.inbound({ phone: randomPhone() }), { hooks: false }),
      ...inputs.map((input) => ingest.ingest(owned.workspaceId, input)),
    ]);
    await eventually('five events', async () => (receiver.at(path).length >= contents.length + 1 ? true : null));
    const got = receiver.at(path).filter((r) => json(r).content !== 'known chat');
    // Each body on its own event: the message id and the content agree.
    expect(Object.fromEntries(got.map((r) => [json(r).chat_message_id, json(r).content]))).toEqual(
      Object.fromEntries(inputs.map((m) => [m.externalId, m.content])),
    );
    for (const request of got) {
      expect(request.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
      // Compact JSON as JSON.stringify writes it: nothing re-encoded on the way through Postgres.
      expect(request.body.toString('utf8')).toBe(JSON.stringify(json(request)));
    }
  });
});
