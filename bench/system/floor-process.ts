// The floor, in a child process: K bare Baileys sockets (makeWASocket through the simulator's own
// test client, as bench/sessions links them) that only decrypt. No service, no database: each
// message's messages.upsert is reported (id, time) over IPC and nothing is kept.
import { BaileysClient } from '../../test/whatsapp-sim/baileys-client.js';
import { wallNow } from './proc-stats.js';
import type { FromFloor, ToFloor, UpsertRecord } from './protocol.js';
import { inBatches } from './workspaces.js';

const send = (message: FromFloor): void => void process.send!(message);
const wsUrl = process.env.BENCH_SIM_URL!;
const control = process.env.BENCH_SIM_CONTROL!;
const clients: BaileysClient[] = [];

let batch: UpsertRecord[] = [];
setInterval(() => {
  if (batch.length) send({ type: 'upserts', upserts: batch });
  batch = [];
}, 50).unref();

/** As bench/sessions/main.ts: a client shows its QR, the simulated phone scans it, the socket opens. */
const link = async (phone: string): Promise<void> => {
  const client = new BaileysClient(wsUrl);
  client.events.on('upsert', (message) => {
    // A decrypted message from a contact (a failed decryption is upserted as a stub without content).
    if (message.key.id && !message.key.fromMe && message.message) batch.push([message.key.id, wallNow()]);
    // The test client keeps every upsert; the floor keeps none.
    client.upserts.length = 0;
  });
  const qr = client.next('qr');
  const open = client.next('open');
  client.start();
  const [code] = await qr;
  const res = await fetch(`${control}/scan`, { method: 'POST', body: JSON.stringify({ qr: code, phone }) });
  if (res.status !== 200) throw new Error(`scan failed: ${await res.text()}`);
  await open;
  clients.push(client);
};

process.on('message', (message: ToFloor) => {
  if (message.type === 'link') {
    const start = performance.now();
    inBatches(message.phones, message.concurrency, link).then(
      () => send({ type: 'linked', seconds: (performance.now() - start) / 1000 }),
      (error: Error) => send({ type: 'linked', seconds: 0, error: error.message }),
    );
  }
  if (message.type === 'stop') {
    for (const client of clients) client.stop();
    setTimeout(() => process.exit(0), 500);
  }
});
process.on('disconnect', () => process.exit(0));
// Baileys is loaded before the floor's RSS with no numbers is read, as a worker holding sessions has it.
await import('@whiskeysockets/baileys');
send({ type: 'ready' });
