// bench/system: the whole service under WhatsApp traffic. K numbers linked by QR to the project's
// simulator (a child process) on ONE worker process of the built service beside ONE api process,
// each workspace with a scan.chat webhook to a receiver in this process; the simulated contacts
// write at a combined rate R (a tenth of it images). It prints the latency from the simulator's
// send to the receiver's 2xx answer at each R, the highest rate sustained for a step, messages per
// CPU second, RSS per number, a soak's RSS slope, and every message lost or duplicated; next to the
// floor of the same run: the same traffic into bare Baileys sockets in one process (decrypt only).
//   npm run bench:system
//   BENCH_SYSTEM_NUMBERS=5 BENCH_SYSTEM_RATES=20,50 BENCH_SYSTEM_STEP_S=10 BENCH_SOAK_MIN=1 npm run bench:system
// Every setting: bench/journal/system.md.
import { loadAverage } from './proc-stats.js';
import { report, summary } from './report.js';
import { runFloor } from './floor-run.js';
import { runService } from './service-run.js';
import { runSoak } from './soak-run.js';
import { SETTINGS } from './settings.js';
import type { SideResult } from './side.js';

console.log(
  `bench:system — K=${SETTINGS.numbers}, rates ${SETTINGS.rates.join(',')} msg/s, steps of ${SETTINGS.stepSeconds} s, ` +
    `${SETTINGS.contacts} contacts per number, ${SETTINGS.mediaShare * 100} % images of ${SETTINGS.imageBytes} bytes; ` +
    `soak ${SETTINGS.soakMinutes} min, ${SETTINGS.soakNumbers} numbers at ${SETTINGS.soakRate}/s; phases ${[...SETTINGS.phases].join(',')}; load average ${loadAverage()}`,
);
let service: SideResult | undefined;
let floor: SideResult | undefined;
if (SETTINGS.phases.has('service')) service = await runService();
if (SETTINGS.phases.has('floor')) floor = await runFloor(service?.half?.rate);
if (SETTINGS.phases.has('soak') && SETTINGS.soakMinutes > 0) {
  const { soak, totals } = await runSoak();
  const before = service?.totals ?? { sent: 0, lost: 0, duplicated: 0, unexpected: 0 };
  const sum = {
    sent: before.sent + totals.sent,
    lost: before.lost + totals.lost,
    duplicated: before.duplicated + totals.duplicated,
    unexpected: before.unexpected + totals.unexpected,
  };
  service = { ...(service ?? { idleRss: 0, linkSeconds: 0, rates: [], best: undefined, steps: [], half: undefined }), totals: sum, soak };
}
summary(service, floor);
if (service) report(service, floor);
console.log(`load average at the end ${loadAverage()}`);
process.exit(0);
