// The service settings of the local demo (the simulator instead of WhatsApp, webhooks to a receiver
// on the same machine): printed by `npm run sim` with its actual address, and shown word for word
// in the README and docs/whatsapp-sim.md ("Local demo"; test/whatsapp-sim/local-demo.spec.ts).
import { isAbsolute, relative } from 'node:path';

/** The `.env` lines for a service started in the repository root. */
export function localDemoEnv(websocketUrl: string, caFile: string): string {
  return [
    "# Local demo only: the WhatsApp simulator (npm run sim) instead of WhatsApp, its media host's test CA and loopback address",
    `WA_WEBSOCKET_URL=${websocketUrl}`,
    `WA_MEDIA_CA_FILE=${caFile}`,
    'ALLOW_PRIVATE_MEDIA_URLS=true',
    '# and webhooks to a receiver on this machine (plain http://, a loopback address)',
    'ALLOW_HTTP_WEBHOOKS=true',
    'ALLOW_PRIVATE_WEBHOOKS=true',
  ].join('\n');
}

/** `file` as the service (started in `cwd`) would be given it: relative when it lies below `cwd`. */
export function pathFrom(cwd: string, file: string): string {
  const path = relative(cwd, file);
  return path.startsWith('..') || isAbsolute(path) ? file : path;
}
