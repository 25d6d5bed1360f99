// The floor's side: a simulator of its own and K bare Baileys sockets in one child process,
// measured with the same phases as the service.
import { FloorProcess } from './floor.js';
import { Ledger } from './ledger.js';
import { loadAverage, MB, sleep } from './proc-stats.js';
import { phonesOf, SETTINGS, shape } from './settings.js';
import { finalCount, measureSide, restingRss, type SideResult } from './side.js';
import { SimHandle } from './sim-handle.js';
import { warmUp, type SystemUnderTest } from './traffic.js';

export const runFloor = async (halfRate: number | undefined): Promise<SideResult> => {
  const sim = await SimHandle.start();
  const ledger = new Ledger();
  const floor = await FloorProcess.start(sim, ledger);
  try {
    await sleep(1000);
    const idleRss = await restingRss(floor.pid);
    console.log(`floor: RSS with no numbers ${(idleRss / MB).toFixed(1)} MB; linking ${SETTINGS.numbers} numbers (load average ${loadAverage()})`);
    const phones = phonesOf(SETTINGS.numbers);
    const linkSeconds = await floor.link(phones, SETTINGS.linkConcurrency);
    await sleep(3000);
    console.log(`floor: ${SETTINGS.numbers} numbers linked in ${linkSeconds.toFixed(1)} s`);
    const sut: SystemUnderTest = { name: 'floor', sim, ledger, phones, cpuPids: [floor.pid], rssPid: floor.pid };
    await warmUp(sut, shape, Math.min(100, SETTINGS.searchStart));
    const measured = await measureSide(sut, () => halfRate);
    const totals = await finalCount(ledger);
    console.log(`floor: ${totals.sent} messages sent, ${totals.lost} lost, ${totals.duplicated} duplicated, ${totals.unexpected} unexpected`);
    return { idleRss, linkSeconds, ...measured, totals };
  } finally {
    await floor.stop();
    await sim.stop();
  }
};
