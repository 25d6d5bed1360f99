// Test helper: a Baileys client linked to a simulated phone and online.
import { BaileysClient } from './baileys-client.js';
import type { WhatsAppSimulator } from './whatsapp-simulator.js';
import type { LinkedDevice } from './sim-model.js';

export const linkClient = async (
  sim: WhatsAppSimulator,
  phone: string,
  options: { qrTimeout?: number } = {},
): Promise<{ client: BaileysClient; device: LinkedDevice }> => {
  const client = new BaileysClient(sim.url, options);
  const qr = client.next('qr');
  client.start();
  const [code] = await qr;
  const device = await sim.scanQr(code, phone);
  await sim.waitForLive(phone);
  await client.next('open');
  return { client, device };
};
