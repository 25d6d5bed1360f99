// The parent's side of the floor (floor-process.ts): starts it, links its numbers and feeds its
// upserts into a ledger.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Ledger } from './ledger.js';
import type { FromFloor, ToFloor } from './protocol.js';
import type { SimHandle } from './sim-handle.js';

export class FloorProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly ledger: Ledger,
  ) {
    child.on('message', (message: FromFloor) => {
      if (message.type === 'upserts') for (const [id, at] of message.upserts) this.ledger.arrived(id, at);
    });
  }

  static async start(sim: SimHandle, ledger: Ledger): Promise<FloorProcess> {
    const main = fileURLToPath(new URL('./floor-process.js', import.meta.url));
    const env = { ...process.env, BENCH_SIM_URL: sim.url, BENCH_SIM_CONTROL: sim.control };
    const child = fork(main, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [ready] = (await once(child, 'message')) as [FromFloor];
    if (ready.type !== 'ready') throw new Error(`the floor said ${ready.type} first`);
    return new FloorProcess(child, ledger);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Links the numbers (a QR each, scanned by the simulated phone); the time it took. */
  async link(phones: string[], concurrency: number): Promise<number> {
    const linked = new Promise<number>((resolve, reject) => {
      const listener = (message: FromFloor): void => {
        if (message.type !== 'linked') return;
        this.child.off('message', listener);
        if (message.error) reject(new Error(`the floor could not link: ${message.error}`));
        else resolve(message.seconds);
      };
      this.child.on('message', listener);
    });
    this.send({ type: 'link', phones, concurrency });
    return linked;
  }

  private send(message: ToFloor): void {
    this.child.send(message);
  }

  async stop(): Promise<void> {
    const exited = once(this.child, 'exit');
    this.send({ type: 'stop' });
    await exited;
  }
}
