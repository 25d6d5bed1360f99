// The worker seen through the V8 inspector the benchmark opens on it (`--inspect` on a loopback
// port): its memory after a full collection, a sampling heap profile, a CPU profile. Memory: RSS alone moves ±60 MB within a minute as V8 grows and
// shrinks its heap, which hides a leak of a few MB an hour; the live heap after a forced
// collection does not. The service needs no hook for it: the inspector is Node's own.
import WebSocket from 'ws';

export interface HeapSample {
  at: number;
  rss: number;
  heapUsed: number;
  external: number;
  /** How long the forced collection took (ms): it pauses the worker, the soak's latency includes it. */
  gcMs: number;
}

interface CdpReply {
  id?: number;
  result?: { result?: { value?: unknown } };
  error?: { message: string };
}

export class WorkerInspector {
  private nextId = 1;

  private constructor(private readonly socket: WebSocket) {}

  /** Attaches to the inspector listening on 127.0.0.1:`port`. */
  static async attach(port: number): Promise<WorkerInspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WorkerInspector(socket);
  }

  private call(method: string, params: Record<string, unknown> = {}): Promise<CdpReply['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const reply = JSON.parse(String(data)) as CdpReply;
        if (reply.id !== id) return;
        this.socket.off('message', onMessage);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply.result);
      };
      this.socket.on('message', onMessage);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A full collection, then the process's `process.memoryUsage()`. */
  async sample(): Promise<HeapSample> {
    const started = performance.now();
    await this.call('HeapProfiler.collectGarbage');
    const gcMs = performance.now() - started;
    const reply = await this.call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    const usage = JSON.parse(String(reply?.result?.value)) as { rss: number; heapUsed: number; external: number };
    return { at: Date.now(), rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external, gcMs };
  }

  /** V8's sampling heap profiler from now on: allocations every ~32 KB, with their stacks. */
  async startSampling(): Promise<void> {
    await this.call('HeapProfiler.startSampling', { samplingInterval: 32_768 });
  }

  /** After a forced collection: the sampled allocations still alive, by stack (a `.heapprofile` for DevTools). */
  async stopSampling(): Promise<unknown> {
    await this.call('HeapProfiler.collectGarbage');
    const result = (await this.call('HeapProfiler.stopSampling')) as { profile?: unknown } | undefined;
    return result?.profile;
  }

  /** V8's CPU profiler from now on (sampling every 1 ms). */
  async startCpuProfile(): Promise<void> {
    await this.call('Profiler.enable');
    await this.call('Profiler.setSamplingInterval', { interval: 1000 });
    await this.call('Profiler.start');
  }

  /** The profile since `startCpuProfile` (a `.cpuprofile` for Chrome DevTools' Performance tab). */
  async stopCpuProfile(): Promise<unknown> {
    const result = (await this.call('Profiler.stop')) as { profile?: unknown } | undefined;
    return result?.profile;
  }

  close(): void {
    this.socket.close();
  }
}
