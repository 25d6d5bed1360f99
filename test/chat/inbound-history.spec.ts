import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import type { ScanHistoryBatch, ScanMessage } from '../../src/modules/chat/driver/scan-driver.port.js';
import { SyncProgressStore } from '../../src/modules/chat/session/sync-progress.store.js';
import { randomLid, randomPhone } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse } from '../support/sse-client.js';
import { createInboundTestApp, eventually, type InboundTestApp, scanMessage, storedMessage } from './inbound-support.js';

describe('scan inbound: history sync', () => {
  let s: InboundTestApp;
  beforeAll(async () => {
    s = await createInboundTestApp();
  });
  afterAll(async () => {
    await s?.close();
  });

  const batch = (messages: ScanMessage[], overrides: Partial<ScanHistoryBatch> = {}): ScanHistoryBatch => ({
    messages,
    chatNames: {},
    lidMappings: [],
    progress: null,
    isLatest: false,
    ...overrides,
  });

  const count = async (sql: string, params: unknown[]): Promise<number> =>
    ((await s.t.dataSource.query(`SELECT count(*)::int AS n FROM ${sql}`, params)) as { n: number }[])[0]!.n;

  it('ingests batches through the bulk path: stored, not unread, no hooks, sync.progress on the stream, done after the latest', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    const ws = workspace.id;
    const stream = await openSse(`${await listenUrl(s.t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    try {
      const phones = [randomPhone(), randomPhone(), randomPhone()];
      const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
      const base = Date.now() - 86_400_000;
      const first = phones.flatMap((phone, p) =>
        Array.from({ length: 10 }, (_, i) =>
          scanMessage({ phone, fromMe: i % 4 === 0, content: `old ${p}/${i}`, timestamp: new Date(base + (p * 10 + i) * 1000) }),
        ),
      );
      const second = [
        scanMessage({ chatJid: group, isGroup: true, senderJid: `${phones[0]}@s.whatsapp.net`, content: 'group history', timestamp: new Date(base) }),
        // Every kind is kept, media as metadata only (history media is not downloaded).
        scanMessage({
          type: 'voice',
          content: '',
          durationS: 7,
          media: { mimeType: 'audio/ogg; codecs=opus', fileName: '', fileSize: 2048, ref: 'ref-history-voice' },
          timestamp: new Date(base),
        }),
      ];
      await s.handler.handle(ws, { type: 'history', batch: batch(first, { progress: 40, chatNames: { [`${phones[0]}@s.whatsapp.net`]: 'Alice' } }) });
      await stream.waitFor('the first sync.progress', (c) => c.events.some((e) => e.event === 'sync.progress'));
      expect(await s.t.app.get(SyncProgressStore).read(ws)).toEqual({ state: 'running', progress: 40 });

      await s.handler.handle(ws, { type: 'history', batch: batch(second, { progress: 90, isLatest: true, chatNames: { [group]: 'Team' } }) });
      await stream.waitFor('two sync.progress', (c) => c.events.filter((e) => e.event === 'sync.progress').length >= 2);

      const progress = stream.events.filter((e) => e.event === 'sync.progress').map((e) => dataOf(e));
      expect(progress).toEqual([
        { progress: 40, chats: 3, messages: 30, done: false },
        { progress: 100, chats: 5, messages: 32, done: true },
      ]);
      expect(await s.t.app.get(SyncProgressStore).read(ws)).toEqual({ state: 'done', progress: 100 });

      expect(await count('messages WHERE workspace_id = $1', [ws])).toBe(32);
      expect(await storedMessage(s.t.dataSource, ws, second[1]!.externalId)).toMatchObject({
        message_type: 'voice',
        duration_s: 7,
        mime_type: 'audio/ogg; codecs=opus',
        file_size: 2048,
        media_url: '',
      });
      expect(await count(`messages WHERE workspace_id = $1 AND direction = 'outbound'`, [ws])).toBe(9);
      const conversations: { chat_jid: string; chat_name: string; unread_count: number; is_group: boolean }[] = await s.t.dataSource.query(
        'SELECT chat_jid, chat_name, unread_count, is_group FROM conversations WHERE workspace_id = $1',
        [ws],
      );
      expect(conversations).toHaveLength(5);
      expect(conversations.every((c) => c.unread_count === 0)).toBe(true);
      expect(conversations.find((c) => c.chat_jid === group)).toMatchObject({ chat_name: 'Team', is_group: true });
      expect(conversations.find((c) => c.chat_jid === `${phones[0]}@s.whatsapp.net`)).toMatchObject({ chat_name: 'Alice' });

      // History is never a webhook or an automation, and not a per-message live event either.
      expect(first.concat(second).some((m) => s.hook.sawMessage(m.externalId))).toBe(false);
      expect(stream.events.filter((e) => e.event === 'message.created')).toEqual([]);
      // Each batch waits (encrypted) only until its job has run: the job publishes its progress,
      // then deletes the batch, so the last delete may still be on its way here.
      await eventually('the batches deleted', async () => (await count('scan_history_batches WHERE workspace_id = $1', [ws])) === 0);
    } finally {
      stream.close();
    }
  });

  it('counts only what it stored: a batch seen again (a re-link, or a retried job) adds nothing', async () => {
    const ws = (await s.t.factories.workspace()).id;
    const messages = Array.from({ length: 5 }, () => scanMessage());
    await s.handler.handle(ws, { type: 'history', batch: batch(messages, { progress: 50 }) });
    await eventually('the first batch', async () => (await count('scan_history_batches WHERE workspace_id = $1', [ws])) === 0);
    await s.handler.handle(ws, { type: 'history', batch: batch(messages, { progress: 30 }) });
    await eventually('the second batch', async () => (await count('scan_history_batches WHERE workspace_id = $1', [ws])) === 0);
    expect(await count('messages WHERE workspace_id = $1', [ws])).toBe(5);
    // Progress never goes back.
    expect(await s.t.app.get(SyncProgressStore).read(ws)).toEqual({ state: 'running', progress: 50 });
  });

  it('keeps the batch encrypted while it waits for its job, and applies its LID mappings', async () => {
    const ws = (await s.t.factories.workspace()).id;
    const phone = randomPhone();
    const lid = randomLid();
    // A contact known by phone from a live message; the history batch knows its LID.
    await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages: [scanMessage({ phone, content: 'secret plans' })] });
    const queue = s.t.app.get<Queue>(getQueueToken(QueueName.HistorySync));
    await queue.pause();
    try {
      await s.handler.handle(ws, {
        type: 'history',
        batch: batch([scanMessage({ phone, content: 'the secret recipe' })], { lidMappings: [{ lid: `${lid}@lid`, phone: `${phone}@s.whatsapp.net` }] }),
      });
      const rows: { payload: string }[] = await s.t.dataSource.query('SELECT payload FROM scan_history_batches WHERE workspace_id = $1', [ws]);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.payload).toMatch(/^v1\./);
      expect(rows[0]!.payload).not.toContain('secret');
      expect(rows[0]!.payload).not.toContain(phone);
    } finally {
      await queue.resume();
    }
    await eventually('the batch', async () => (await count('scan_history_batches WHERE workspace_id = $1', [ws])) === 0);
    expect(await s.t.dataSource.query('SELECT phone, lid FROM contacts WHERE workspace_id = $1', [ws])).toEqual([{ phone, lid }]);
  });
});
