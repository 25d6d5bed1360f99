// One load generator, run as a child process so that it shares nothing with the server (and the
// server's process.cpuUsage() counts the server alone): `concurrency` keep-alive connections to
// 127.0.0.1, each sending its next request when the last answer arrives, until `maxRequests` are
// sent or `durationMs` has passed.
import { Agent, request } from 'node:http';

export interface LoadJob {
  port: number;
  path: string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
  maxRequests: number;
}

export interface LoadResult {
  requests: number;
  elapsedMs: number;
  /** Status code → count; anything but 200 means the figure is not comparable. */
  statuses: Record<string, number>;
}

function once(agent: Agent, job: LoadJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: job.port, path: job.path, headers: job.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const statuses: Record<string, number> = {};
  let sent = 0;
  const started = performance.now();
  const deadline = started + job.durationMs;
  const loop = async (): Promise<void> => {
    while (sent < job.maxRequests && performance.now() < deadline) {
      sent++;
      const status = await once(agent, job);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, loop));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { requests: Object.values(statuses).reduce((a, b) => a + b, 0), elapsedMs, statuses };
}

process.once('message', (job: LoadJob) => {
  void run(job).then((result) => process.send?.(result, () => process.exit(0)));
});
