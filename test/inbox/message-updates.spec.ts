import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetricsRegistry } from '../../src/infra/metrics/metrics.registry.js';
import type { ChannelName } from '../../src/modules/channels/channel-gateway.port.js';
import type { UpdateSource } from '../../src/modules/inbox/messages/message-updates.service.js';
import { InboxFactories, messageId, randomPhone } from '../support/inbox-factories.js';
import { eventually } from '../chat/inbound-support.js';
import { createUpdatesTestApp, type UpdatesTestApp } from './message-updates-support.js';

const TTL_MS = 800;

const row = async (s: UpdatesTestApp, workspaceId: string, channel: ChannelName, externalId: string): Promise<Record<string, unknown> | undefined> =>
  (
    (await s.t.dataSource.query(
      'SELECT content, reactions, edited_at IS NOT NULL AS edited, deleted_at IS NOT NULL AS deleted FROM messages WHERE workspace_id = $1 AND channel = $2 AND external_id = $3',
      [workspaceId, channel, externalId],
    )) as Record<string, unknown>[]
  )[0];

/** A channel's update from the peer of a one-to-one chat, `jid`. */
const from = (jid: string): UpdateSource => ({ chatJid: jid, senderJid: jid, fromMe: false });

// The updates service as both channels and the API call it, without the hooks' transaction (as in
// production, where no webhook event is made from these changes yet).
describe('message updates', () => {
  let s: UpdatesTestApp;
  let inbox: InboxFactories;
  beforeAll(async () => {
    s = await createUpdatesTestApp({ pending: { ttlMs: TTL_MS, sweepIntervalMs: 100 }, recordChanges: false });
    inbox = new InboxFactories(s.t.app);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('acts on the message of its own channel only: a Cloud API reaction, edit and revoke, before and after their messages', async () => {
    const { workspace } = await s.t.factories.workspaceWithOwner();
    const phone = randomPhone();
    const shared = messageId();
    const scan = await inbox.message(workspace.id, { phone, externalId: shared, content: 'on the scan number' });
    const meta = await inbox.message(workspace.id, { phone, channel: 'meta', externalId: shared, content: 'on the cloud number' });
    expect(meta.message.channel).toBe('meta');
    const sender = `${phone}@s.whatsapp.net`;
    await s.updates.react(workspace.id, 'meta', { ...from(sender), targetExternalId: shared, emoji: '👍' });
    await s.updates.edit(workspace.id, 'meta', { ...from(sender), targetExternalId: shared, content: 'on the cloud number!' });
    expect(await row(s, workspace.id, 'meta', shared)).toEqual({
      content: 'on the cloud number!',
      reactions: [{ emoji: '👍', sender_jid: sender }],
      edited: true,
      deleted: false,
    });
    expect(await row(s, workspace.id, 'scan', shared)).toEqual({ content: scan.message.content, reactions: [], edited: false, deleted: false });

    const later = messageId();
    await s.updates.revoke(workspace.id, 'meta', { ...from(sender), targetExternalId: later });
    await s.updates.react(workspace.id, 'meta', { ...from(sender), targetExternalId: later, emoji: '🙏' });
    await inbox.message(workspace.id, { phone, channel: 'meta', externalId: later, content: 'deleted soon' });
    expect(await eventually('the waiting updates', async () => (await s.waiting(workspace.id)) === 0 && row(s, workspace.id, 'meta', later))).toEqual({
      content: 'deleted soon',
      reactions: [{ emoji: '🙏', sender_jid: sender }],
      edited: false,
      deleted: true,
    });
  });

  it('the workspace’s own reaction, delete and edit (through the API) answer the message with its conversation; none such answers null', async () => {
    const { workspace } = await s.t.factories.workspaceWithOwner();
    const { message, conversation } = await inbox.message(workspace.id, { content: 'can you call me?' });
    const own = '4915100000001:7@s.whatsapp.net';

    const reacted = await s.updates.applyOwnReaction(workspace.id, message.id, own, '👍');
    expect(reacted).toMatchObject({
      message: { id: message.id, reactions: [{ emoji: '👍', sender_jid: '4915100000001@s.whatsapp.net' }] },
      conversation: { id: conversation.id },
    });
    // A repeat answers the message as it is.
    expect((await s.updates.applyOwnReaction(workspace.id, message.id, own, '👍'))?.message.reactions).toEqual(reacted!.message.reactions);
    expect((await s.updates.applyOwnReaction(workspace.id, message.id, own, ''))?.message.reactions).toEqual([]);

    const edited = await s.updates.applyOwnEdit(workspace.id, message.id, 'can you call me at 5?');
    expect(edited).toMatchObject({ message: { content: 'can you call me at 5?' }, conversation: { lastMessagePreview: 'can you call me at 5?' } });
    expect(edited!.message.editedAt).toBeInstanceOf(Date);

    const deleted = await s.updates.markDeleted(workspace.id, message.id);
    expect(deleted).toMatchObject({ message: { id: message.id, content: 'can you call me at 5?' }, conversation: { id: conversation.id } });
    expect(deleted!.message.deletedAt).toBeInstanceOf(Date);
    expect((await s.updates.markDeleted(workspace.id, message.id))!.message.deletedAt).toEqual(deleted!.message.deletedAt);

    const other = await s.t.factories.workspaceWithOwner();
    expect(await s.updates.applyOwnReaction(other.workspace.id, message.id, own, '👍')).toBeNull();
    expect(await s.updates.markDeleted(other.workspace.id, message.id)).toBeNull();
    expect(await s.updates.applyOwnEdit(workspace.id, '00000000-0000-4000-8000-000000000000', 'x')).toBeNull();
    expect(await s.updates.applyOwnEdit(workspace.id, 'not-an-id', 'x')).toBeNull();
    expect(await row(s, workspace.id, 'scan', message.externalId!)).toMatchObject({ reactions: [], deleted: true, content: 'can you call me at 5?' });
  });

  it('an update whose message never arrives is dropped after the wait and counted by kind; the message arriving later keeps its own state', async () => {
    const { workspace } = await s.t.factories.workspaceWithOwner();
    const before = { reaction: await s.dropped('reaction'), edit: await s.dropped('edit'), revoke: await s.dropped('revoke') };
    const phone = randomPhone();
    const lost = messageId();
    const peer = from(`${phone}@s.whatsapp.net`);
    await s.updates.react(workspace.id, 'scan', { ...peer, targetExternalId: lost, emoji: '👍' });
    await s.updates.edit(workspace.id, 'meta', { ...peer, targetExternalId: messageId(), content: 'never seen' });
    await s.updates.revoke(workspace.id, 'scan', { ...peer, targetExternalId: messageId() });
    expect(await s.waiting(workspace.id)).toBe(3);

    await eventually('the drop', async () => (await s.waiting(workspace.id)) === 0, TTL_MS * 10);
    expect({ reaction: await s.dropped('reaction'), edit: await s.dropped('edit'), revoke: await s.dropped('revoke') }).toEqual({
      reaction: before.reaction + 1,
      edit: before.edit + 1,
      revoke: before.revoke + 1,
    });
    const exposition = await s.t.app.get(MetricsRegistry).exposition();
    expect(exposition).toMatch(/^inbox_message_updates_dropped_total\{kind="reaction"\} \d+$/m);

    await inbox.message(workspace.id, { phone, externalId: lost, content: 'late' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await row(s, workspace.id, 'scan', lost)).toEqual({ content: 'late', reactions: [], edited: false, deleted: false });
  });
});

describe('message updates in two processes', () => {
  let a: UpdatesTestApp;
  let b: UpdatesTestApp;
  beforeAll(async () => {
    // Sweeps only when the test says.
    const pending = { ttlMs: 60_000, sweepIntervalMs: 3_600_000 };
    a = await createUpdatesTestApp({ pending });
    b = await createUpdatesTestApp({ pending, replicaOf: a.t });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('two sweepers at once apply each waiting update exactly once, in order of arrival', async () => {
    const { workspace } = await a.t.factories.workspaceWithOwner();
    const inbox = new InboxFactories(a.t.app);
    const phone = randomPhone();
    const sender = `${phone}@s.whatsapp.net`;
    const targets = Array.from({ length: 20 }, () => messageId());
    for (const target of targets) {
      for (const emoji of ['👍', '❤️', '😮']) await a.updates.react(workspace.id, 'scan', { ...from(sender), targetExternalId: target, emoji });
    }
    for (const target of targets) await inbox.message(workspace.id, { phone, externalId: target });

    await Promise.all([a.sweeper.sweep(), b.sweeper.sweep(), a.sweeper.sweep(), b.sweeper.sweep()]);
    // A target one sweeper skipped while the other held it is left for the next round.
    while ((await a.waiting(workspace.id)) > 0) await Promise.all([a.sweeper.sweep(), b.sweeper.sweep()]);

    const mine = [...a.committed, ...b.committed].flatMap((change) =>
      change.kind === 'message.reaction' && change.message.workspaceId === workspace.id ? [change] : [],
    );
    expect(mine).toHaveLength(targets.length * 3);
    for (const target of targets) {
      expect(mine.filter((change) => change.message.externalId === target).map((change) => change.reaction.emoji)).toEqual(['👍', '❤️', '😮']);
      expect((await row(a, workspace.id, 'scan', target))!.reactions).toEqual([{ emoji: '😮', sender_jid: sender }]);
    }
  });
});
