// The parent's side of sim-driver.ts: starts it, feeds its send reports into a ledger and runs
// traffic steps on it.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Ledger } from './ledger.js';
import type { FromSim, ToSim, TrafficCommand, TrafficDone } from './protocol.js';

export class SimHandle {
  ledger: Ledger | undefined;
  private readonly done = new Map<number, (done: TrafficDone) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly control: string,
  ) {
    child.on('message', (message: FromSim) => {
      if (message.type === 'sent') this.ledger?.sent(message.step, message.sends);
      if (message.type === 'traffic-done') this.done.get(message.step)?.(message);
    });
  }

  static async start(): Promise<SimHandle> {
    const main = fileURLToPath(new URL('./sim-driver.js', import.meta.url));
    const child = fork(main, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [ready] = (await once(child, 'message')) as [FromSim];
    if (ready.type !== 'ready') throw new Error(`the simulator said ${ready.type} first`);
    return new SimHandle(child, ready.url, ready.control);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Runs one step of traffic; resolves once its last message went out. */
  traffic(command: Omit<TrafficCommand, 'type'>): Promise<TrafficDone> {
    return new Promise((resolve) => {
      this.done.set(command.step, (done) => {
        this.done.delete(command.step);
        resolve(done);
      });
      this.send({ type: 'traffic', ...command });
    });
  }

  private send(message: ToSim): void {
    this.child.send(message);
  }

  async stop(): Promise<void> {
    const exited = once(this.child, 'exit');
    this.send({ type: 'stop' });
    await exited;
  }
}
