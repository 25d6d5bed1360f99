// Container health check (Dockerfile HEALTHCHECK): exit 0 when the service is healthy.
// An api (or all) process must answer GET /api/health with 200, which means Postgres and Redis
// are reachable too. A worker opens no API port: with METRICS_PORT set it must answer its metrics
// there (the process is up and serving); without it, a running worker counts as healthy (a worker
// that loses Redis keeps retrying and recovers by itself).
const role = process.env.ROLE || 'all';
const metricsPort = process.env.METRICS_PORT;
if (role === 'worker' && !metricsPort) process.exit(0);

// Where the ports are bound: HOST when it names one address (an IPv6 one in brackets), else loopback.
const bound = (process.env.HOST || '').trim().replace(/^\[(.*)\]$/, '$1');
const host = !bound || bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound.includes(':') ? `[${bound}]` : bound;
const url = role === 'worker' ? `http://${host}:${metricsPort}/metrics` : `http://${host}:${process.env.PORT || '3000'}/api/health`;
const headers = role === 'worker' && process.env.METRICS_TOKEN ? { Authorization: `Bearer ${process.env.METRICS_TOKEN}` } : {};
try {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
