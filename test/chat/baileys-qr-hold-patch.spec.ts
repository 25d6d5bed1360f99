import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { patchSocketSource, QR_HOLD_MARK, QR_PATCHED_FILE } from '../../scripts/patch-baileys.mjs';
import { BaileysClient } from '../whatsapp-sim/baileys-client.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// The second patch of the pinned Baileys (scripts/patch-baileys.mjs): while the passkey ceremony
// runs (docs/passkey.md), Baileys' QR timer neither rotates codes nor ends the socket with 408.
describe('Baileys patch: the QR timer waits while a passkey check runs', () => {
  it('is installed: the file Baileys runs carries the patch (an upgrade that drops it fails here)', () => {
    const installed = readFileSync(QR_PATCHED_FILE, 'utf8');
    expect(installed).toContain(QR_HOLD_MARK);
    expect(installed).toContain('config.holdPairingQr?.()');
    expect(patchSocketSource(installed)).toBe(installed);
    expect(() => patchSocketSource('export const makeSocket = () => ({});')).toThrow(/changed \(Baileys upgraded\?\)/);
  });

  describe('with a bare Baileys socket against the simulator', () => {
    let sim: WhatsAppSimulator;
    let client: BaileysClient | undefined;

    beforeEach(async () => {
      sim = await WhatsAppSimulator.start();
    });
    afterEach(async () => {
      client?.stop();
      await sim.stop();
    });

    it('held: the refs running out neither shows a code nor ends the socket', async () => {
      let held = false;
      client = new BaileysClient(sim.url, { holdPairingQr: () => held });
      const first = client.next('qr');
      client.start();
      await first;
      held = true;
      let codes = 0;
      client.events.on('qr', () => codes++);
      // WhatsApp's "no more refs" (an empty pair-device): unpatched Baileys ends with 408 at once.
      sim.expireQr();
      await sleep(1_000);
      expect(client.closes).toEqual([]);
      expect(codes).toBe(0);
      expect(sim.waitingToLink()).toBe(1);
    });

    it('not held: the same ends the socket with 408, as Baileys always did', async () => {
      client = new BaileysClient(sim.url, { holdPairingQr: () => false });
      const first = client.next('qr');
      client.start();
      await first;
      const closed = client.next('close');
      sim.expireQr();
      const [info] = await closed;
      expect(info.statusCode).toBe(408);
    });
  });
});
