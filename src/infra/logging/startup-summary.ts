import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app-config.js';
import { waEndpoint } from '../config/wa-endpoint.js';
import type { DatabasePreparation } from '../database/migrator.js';

/** The start-up summary's fields (also in its JSON line, under `startup`). */
export interface StartupSummary {
  role: string;
  /** `host:port` the HTTP port is bound to, or `no HTTP` (ROLE=worker). */
  listen: string;
  public_url: string | null;
  database: {
    /** `name at host:port`; never the URL (it may carry a password). */
    target: string;
    /** null: not checked at start (DB_MIGRATE_ON_START=false). */
    created: boolean | null;
    migrations_applied: number | null;
  };
  whatsapp: { endpoint: string; default: boolean };
}

const ALL_INTERFACES = new Set(['::', '0.0.0.0']);

function listenAddress(address: AddressInfo | string | null): string {
  if (address === null) return 'no HTTP';
  if (typeof address === 'string') return address; // a pipe or socket path
  return address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}

function databaseTarget(url: string): string {
  const parsed = new URL(url);
  return `${decodeURIComponent(parsed.pathname.replace(/^\//, ''))} at ${parsed.host}`;
}

/**
 * The one info line a start-up ends with: what runs, where it listens, what it did to the
 * database and which WhatsApp endpoint the scan channel uses. Readiness checks (tests, scripts)
 * look for its start: `<role> listening on` or `worker running`.
 */
export function startupSummary(
  config: AppConfig,
  address: AddressInfo | string | null,
  database: DatabasePreparation | null,
): { message: string; fields: StartupSummary } {
  const endpoint = waEndpoint(config);
  const fields: StartupSummary = {
    role: config.role,
    listen: listenAddress(address),
    public_url: config.runsHttp ? config.publicUrl : null,
    database: { target: databaseTarget(config.databaseUrl), created: database?.created ?? null, migrations_applied: database?.applied.length ?? null },
    whatsapp: { endpoint: endpoint.url, default: endpoint.default },
  };
  const where =
    address === null
      ? `${config.role} running (no HTTP)`
      : `${config.role} listening on ${fields.listen}${typeof address !== 'string' && ALL_INTERFACES.has(address.address) ? ' (all interfaces)' : ''}, public URL ${config.publicUrl}`;
  const count = database?.applied.length ?? 0;
  const migrations =
    database === null
      ? 'migrations not run at start (DB_MIGRATE_ON_START=false)'
      : count === 0
        ? 'migrations up to date'
        : `${count} migration${count === 1 ? '' : 's'} applied now`;
  const created = database === null ? '' : database.created ? ' (created)' : ' (existing)';
  const whatsapp = `WhatsApp ${fields.whatsapp.endpoint}${fields.whatsapp.default ? ' (default)' : ' (WA_WEBSOCKET_URL)'}${config.runsWorkers ? '' : ', used by the worker processes'}`;
  return { message: `${where}; database ${fields.database.target}${created}, ${migrations}; ${whatsapp}`, fields };
}
