import { type AppConfig, DEFAULT_WA_WEBSOCKET_URL } from '../../../infra/config/app-config.js';

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
  return {
    url: withoutSecrets(config.waWebSocketUrl),
    default: normalised(config.waWebSocketUrl) === normalised(DEFAULT_WA_WEBSOCKET_URL),
    development: config.nodeEnv !== 'production',
  };
}

function withoutSecrets(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    // The schema checks WA_WEBSOCKET_URL at start-up; nothing unparsable gets here.
    return '';
  }
}

function normalised(raw: string): string {
  try {
    return new URL(raw).href;
  } catch {
    return raw;
  }
}
