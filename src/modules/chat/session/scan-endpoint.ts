import type { AppConfig } from '../../../infra/config/app-config.js';
import { waEndpoint } from '../../../infra/config/wa-endpoint.js';

/** Where the scan channel's sockets connect, as `GET /api/chat/status` shows it (`endpoint`). */
export interface ScanEndpoint {
  /** WA_WEBSOCKET_URL (or WhatsApp's own endpoint), without user, password, query or fragment. */
  url: string;
  /** It is WhatsApp's own endpoint (WA_WEBSOCKET_URL unset or set to it). */
  default: boolean;
  /** NODE_ENV is not production. */
  development: boolean;
}

/**
 * Lets a Console tell a session against a simulator (or any other endpoint) from one against
 * WhatsApp. Only scheme, host, port and path are shown: a URL's credentials or query may hold a
 * secret of whoever runs that endpoint.
 */
export function scanEndpoint(config: Pick<AppConfig, 'waWebSocketUrl' | 'nodeEnv'>): ScanEndpoint {
  return { ...waEndpoint(config), development: config.nodeEnv !== 'production' };
}
