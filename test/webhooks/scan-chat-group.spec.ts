import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { addWebhook, createWebhookTestApp, eventually, json, ownedWorkspace, Receiver } from './webhook-support.js';

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
      expect(receiver.at(path).map((r) => json(r).chat_message_id).sort()).toEqual([...mine].sort());
    }
  });
});
