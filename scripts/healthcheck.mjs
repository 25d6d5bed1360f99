// Container health check (Dockerfile HEALTHCHECK): exit 0 when the service is healthy.
// An api (or all) process must answer GET /api/health with 200, which means Postgres and Redis
// are reachable too. A worker opens no HTTP port; while its process runs it counts as healthy
// (a worker that loses Redis keeps retrying and recovers by itself).
const role = process.env.ROLE || 'all';
if (role === 'worker') process.exit(0);

const port = process.env.PORT || '3000';
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
