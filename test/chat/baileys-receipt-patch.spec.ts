import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { PATCH_MARK, PATCHED_FILE, patchSource } from '../../scripts/patch-baileys.mjs';
import { createE2eApp, type E2eWorkspace, eventually, link, newWorkspace, sleep } from '../e2e/e2e-support.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

const PHONE = '4915100410001';
const CONTACT = '4915100410002';

// The one patch of the pinned Baileys (scripts/patch-baileys.mjs, applied by `postinstall`):
// an inbound message's receipt goes to WhatsApp only once the service has stored the message.
describe('Baileys patch: the receipt of an inbound message waits for its commit', () => {
  it('is installed: the file Baileys runs carries the patch (an upgrade that drops it fails here)', () => {
    const installed = readFileSync(PATCHED_FILE, 'utf8');
    expect(installed).toContain(PATCH_MARK);
    expect(installed).toContain('config.deferInboundReceipt');
    // Patching again changes nothing; code that changed shape is refused, never silently skipped.
    expect(patchSource(installed)).toBe(installed);
    expect(() => patchSource('export const makeMessagesRecvSocket = () => ({});')).toThrow(/changed \(Baileys upgraded\?\)/);
  });

  describe('through the real driver and the simulator', () => {
    let sim: WhatsAppSimulator;
    let t: TestApp;
    let ws: E2eWorkspace;
    let locker: pg.Client;

    beforeAll(async () => {
      sim = await WhatsAppSimulator.start();
      t = await createE2eApp(sim);
      ws = await newWorkspace(t);
      sim.addContact(CONTACT, 'Dana');
      await link(t, sim, ws, PHONE);
      locker = new pg.Client({ connectionString: t.config.databaseUrl });
      await locker.connect();
    });
    afterAll(async () => {
      await locker?.end().catch(() => undefined);
      await t?.close();
      await sim?.stop();
    });

    const stored = async (externalId: string): Promise<number> => {
      const [row]: { n: number }[] = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND external_id = $2`, [
        ws.workspaceId,
        externalId,
      ]);
      return row!.n;
    };
    const acked = (id: string): Promise<boolean> => Promise.race([sim.waitForAck(id, PHONE).then(() => true), sleep(1_500).then(() => false)]);

    /** Holds every insert into messages until the returned function is called. */
    const holdMessageWrites = async (): Promise<() => Promise<void>> => {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE messages IN SHARE ROW EXCLUSIVE MODE');
      return async () => void (await locker.query('COMMIT'));
    };

    it('sends no receipt while the message cannot be stored, and sends it once it is', async () => {
      const release = await holdMessageWrites();
      let id: string;
      try {
        id = await sim.deliverText({ to: PHONE, from: CONTACT, text: 'are you there?' });
        // The message reached the service (its insert waits on the lock), yet WhatsApp was told nothing.
        expect(await acked(id)).toBe(false);
        expect(await stored(id)).toBe(0);
      } finally {
        await release();
      }
      await sim.waitForAck(id, PHONE);
      expect(await stored(id)).toBe(1);
    });

    it('a message whose receipt never went is delivered again on the next connection and stored once', async () => {
      const release = await holdMessageWrites();
      let id: string;
      try {
        id = await sim.deliverText({ to: PHONE, from: CONTACT, text: 'second try' });
        expect(await acked(id)).toBe(false);
        // The connection ends before the message is stored: WhatsApp keeps it for the next one.
        sim.dropConnection(PHONE);
        await sim.waitForOffline(PHONE);
      } finally {
        await release();
      }
      await sim.waitForLive(PHONE);
      await sim.waitForAck(id, PHONE);
      await eventually('the message stored', async () => ((await stored(id)) === 1 ? true : undefined));
      await sleep(500);
      expect(await stored(id)).toBe(1);
    });
  });
});
