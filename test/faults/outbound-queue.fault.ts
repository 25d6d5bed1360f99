import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import type { SentMessage } from '../whatsapp-sim/sim-model.js';
import { cleanupAll } from './support/cleanup.js';
import { faultScenarios } from './support/scenario.js';
import { FaultCluster, type Workspace } from './support/cluster.js';
import { sleep, waitFor } from './support/ports.js';

type Json = Record<string, unknown>;

/**
 * The paced outbound queue across real processes (issue 40, docs/sending.md): 2 api and 2 worker
 * processes of the built service share one lane per number, so sends made through both api
 * processes at once still reach the contacts paced (the simulator's receive times), each chat in
 * order; and a worker killed mid-queue loses nothing and doubles nothing: every queued message
 * reaches its contact exactly once after the other worker takes over.
 */
describe('fault injection: the outbound queue of a number', () => {
  let sim: WhatsAppSimulator;
  let cluster: FaultCluster;
  let ws: Workspace;
  const { scenario, failed } = faultScenarios(180_000);
  const MIN_GAP_MS = 200;

  const limits = (body: object): Promise<{ status: number; body: unknown }> =>
    cluster.request('PATCH', '/api/chat/limits', { cookie: ws.cookie, tenant: ws.id }, body);

  /** Chats the contacts opened (no first-contact cap): phone → conversation id. */
  async function openChats(phones: string[]): Promise<Map<string, string>> {
    const chats = new Map<string, string>();
    for (const phone of phones) {
      await sim.deliverText({ to: ws.phone, from: phone, name: `Contact ${phone.slice(-2)}`, text: 'hello' });
      const id = await waitFor(`the chat with ${phone}`, async () => {
        const res = await cluster.request('GET', '/api/conversations', { key: ws.key });
        return ((res.body as Json[]) ?? []).find((c) => c.chat_phone === phone)?.id as string | undefined;
      });
      chats.set(phone, id);
    }
    return chats;
  }

  /** What the contacts received whose text starts with `label`, once each id (a resend keeps its id). */
  const receivedWith = (label: string): SentMessage[] => sim.sent(ws.phone).filter((m) => m.text?.startsWith(label) && !m.repeat);

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    cluster = await FaultCluster.start(sim);
    ws = await cluster.workspace('Pacer', '15550700041');
    await cluster.link(ws);
    expect((await limits({ min_gap_ms: MIN_GAP_MS, jitter_ms: 100, per_minute: 300, burst: 50, typing: 'off', unanswered_per_chat: 100 })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    if (failed() && cluster) console.error(`fault suite: process logs\n${cluster.logs()}`);
    const problems = await cleanupAll();
    await sim?.stop();
    if (problems.length) throw new Error(`cleanup: ${problems.join('; ')}`);
  });

  scenario('200 sends through both api processes at once arrive paced: never closer than the least gap, with jitter, each chat in order', async () => {
    const phones = ['4915100410001', '4915100410002', '4915100410003', '4915100410004'];
    const chats = await openChats(phones);
    const answers: Answer[] = [];
    // Ten at a time, alternating api processes: the two compete for the one lane.
    for (let batch = 0; batch < 20; batch += 1) {
      const sends = Array.from({ length: 10 }, (_, k) => {
        const n = batch * 10 + k;
        const phone = phones[n % phones.length]!;
        return cluster
          .request('POST', `/api/conversations/${chats.get(phone)}/messages`, { key: ws.key }, { body: `paced ${phone} ${String(n).padStart(3, '0')}` }, n % 2)
          .then((res) => answers.push({ n, phone, ...res }));
      });
      await Promise.all(sends);
    }
    expect(answers.filter((a) => a.status !== 201)).toEqual([]);
    expect(answers.every((a) => (a.body as Json).status === 'pending')).toBe(true);

    await waitFor('all 200 received', async () => receivedWith('paced ').length >= 200, 150_000, 500);
    const received = receivedWith('paced ');
    expect(received).toHaveLength(200);
    expect(new Set(received.map((m) => m.text)).size).toBe(200);
    const gaps = received.slice(1).map((m, i) => m.at - received[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_GAP_MS);
    // Jitter: the gaps spread over the 100 ms the settings allow, not one fixed beat.
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThanOrEqual(40);
    // Each chat's messages in the order the API stored them (their `seq` in the chat): sends made at
    // the same moment through two processes have no order of their own, the stored one holds.
    const seqOf = new Map(answers.map((a) => [(a.body as Json).content as string, Number((a.body as Json).seq)]));
    for (const phone of phones) {
      const seqs = received.filter((m) => m.contact === phone).map((m) => seqOf.get(m.text!)!);
      expect(seqs).toHaveLength(50);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  scenario('a worker killed mid-queue: every queued message reaches its contact exactly once after the other worker takes over', async () => {
    const phones = ['4915100420001', '4915100420002'];
    const chats = await openChats(phones);
    const texts: string[] = [];
    for (let n = 0; n < 30; n += 1) {
      const phone = phones[n % 2]!;
      const text = `killed ${phone} ${String(n).padStart(2, '0')}`;
      const res = await cluster.request('POST', `/api/conversations/${chats.get(phone)}/messages`, { key: ws.key }, { body: text }, n % 2);
      expect(res.status).toBe(201);
      texts.push(text);
    }
    await waitFor('the queue under way', async () => receivedWith('killed ').length >= 5, 30_000, 50);
    const held = await cluster.held();
    const victim = cluster.workers[held[0]! >= held[1]! ? 0 : 1]!;
    expect((await victim.signal('SIGKILL')).signal).toBe('SIGKILL');
    const atKill = receivedWith('killed ').length;
    expect(atKill).toBeLessThan(30);

    await waitFor('all 30 received', async () => receivedWith('killed ').length >= 30, 120_000, 500);
    await sleep(1_000);
    const received = sim.sent(ws.phone).filter((m) => m.text?.startsWith('killed '));
    // Exactly once: one id per text (a resend after the kill would carry the same id: WhatsApp shows it once).
    const idsByText = new Map<string, Set<string>>();
    for (const m of received) idsByText.set(m.text!, (idsByText.get(m.text!) ?? new Set()).add(m.id));
    expect([...idsByText.keys()].sort()).toEqual([...texts].sort());
    expect([...idsByText.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    for (const phone of phones) {
      const order = receivedWith('killed ')
        .filter((m) => m.contact === phone)
        .map((m) => m.text!);
      expect(order).toEqual([...order].sort());
    }
    const stored = await cluster.db.query<{ status: string; n: string }>(
      `SELECT status, count(*)::text AS n FROM messages WHERE workspace_id = $1 AND content LIKE 'killed %' GROUP BY status`,
      [ws.id],
    );
    expect(stored.rows).toEqual([{ status: 'sent', n: '30' }]);
    await victim.start();
  });
});

interface Answer {
  n: number;
  phone: string;
  status: number;
  body: unknown;
}
