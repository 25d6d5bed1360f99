// The benchmark's simulator, in a child process of its own (its CPU and memory are not the
// service's): the project's WhatsApp simulator with its HTTP control API (linking: POST /scan),
// and a traffic generator driven over IPC. For each step it sends `rate` messages a second, spread
// evenly, from the contacts of each number in turn (contactOf), a share of them images, and
// reports every message as it goes out (its id, the account, the time the stanza was sent).
import { randomBytes } from 'node:crypto';
import { startHttpControl } from '../../test/whatsapp-sim/http-control.js';
import { WhatsAppSimulator } from '../../test/whatsapp-sim/whatsapp-simulator.js';
import { wallNow } from './proc-stats.js';
import { contactOf, type FromSim, type SendRecord, type ToSim, type TrafficCommand } from './protocol.js';

const MAX_IN_FLIGHT = 2000;
const TICK_MS = 5;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const send = (message: FromSim): void => void process.send!(message);

const sim = await WhatsAppSimulator.start({ host: '127.0.0.1', port: 0 });
const control = await startHttpControl(sim, 0, '127.0.0.1');

let batch: SendRecord[] = [];
let batchStep = -1;
const flush = (): void => {
  if (batch.length) send({ type: 'sent', step: batchStep, sends: batch });
  batch = [];
};
setInterval(flush, 50).unref();

const runTraffic = async (command: TrafficCommand): Promise<void> => {
  flush();
  batchStep = command.step;
  const total = command.count ?? Math.round(command.rate * (command.seconds ?? 0));
  const image = Buffer.concat([PNG_SIGNATURE, randomBytes(Math.max(0, command.imageBytes - PNG_SIGNATURE.length))]);
  const names = new Map<string, string>();
  let issued = 0;
  let inFlight = 0;
  let sent = 0;
  let failed = 0;
  let firstError: string | undefined;
  let firstAt = 0;
  let lastAt = 0;
  let maxLagMs = 0;
  const start = wallNow();
  const one = async (n: number, scheduledAt: number): Promise<void> => {
    const k = command.phones.length;
    const to = command.phones[n % k]!;
    const from = contactOf(to, Math.floor(n / k) % command.contacts);
    const name = names.get(from) ?? `Contact ${from.slice(-5)}`;
    names.set(from, name);
    // Image n when the running share passes a whole number: exactly `mediaShare` of them, spread out.
    const media = Math.floor((n + 1) * command.mediaShare) > Math.floor(n * command.mediaShare);
    try {
      const id = media
        ? await sim.deliverMedia({ to, from, name, kind: 'image', mimetype: 'image/png', data: image, caption: `photo ${n}` })
        : await sim.deliverText({ to, from, name, text: `message ${n} of step ${command.step}` });
      const at = wallNow();
      if (!firstAt) firstAt = at;
      lastAt = at;
      maxLagMs = Math.max(maxLagMs, at - scheduledAt);
      sent += 1;
      batch.push([id, to, at, media ? 1 : 0]);
    } catch (error) {
      failed += 1;
      firstError ??= (error as Error).message;
    }
  };
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const elapsed = wallNow() - start;
      const due = Math.min(total, Math.floor((elapsed * command.rate) / 1000) + 1);
      while (issued < due && inFlight < MAX_IN_FLIGHT) {
        const n = issued++;
        inFlight += 1;
        void one(n, start + (n * 1000) / command.rate).finally(() => {
          inFlight -= 1;
          if (issued === total && inFlight === 0) resolve();
        });
      }
      if (issued < total) setTimeout(tick, TICK_MS);
    };
    if (total === 0) resolve();
    else tick();
  });
  flush();
  send({ type: 'traffic-done', step: command.step, sent, failed, firstError, firstAt, lastAt, maxLagMs });
};

process.on('message', (message: ToSim) => {
  if (message.type === 'traffic') void runTraffic(message);
  if (message.type === 'stop') {
    control.server.close();
    void sim.stop().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', url: sim.url, control: control.url });
