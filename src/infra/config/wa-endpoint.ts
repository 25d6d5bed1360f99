import { type AppConfig, DEFAULT_WA_WEBSOCKET_URL } from './app-config.js';

/** The scan channel's WebSocket endpoint as it may be shown (start-up line, `GET /api/chat/status`). */
export interface WaEndpoint {
  /** WA_WEBSOCKET_URL (or WhatsApp's own endpoint) without user, password, query or fragment. */
  url: string;
  /** It is WhatsApp's own endpoint: WA_WEBSOCKET_URL unset, or set to that URL (as a URL, so `WEB.WhatsApp.com` too). */
  default: boolean;
}

/**
 * Which WhatsApp endpoint the scan channel uses, fit to show: only scheme, host, port and path, as
 * a URL's credentials or query may hold a secret of whoever runs that endpoint (a simulator, a
 * proxy). The one place that decides what "the default endpoint" means.
 */
export function waEndpoint(config: Pick<AppConfig, 'waWebSocketUrl'>): WaEndpoint {
  const url = URL.parse(config.waWebSocketUrl);
  // The schema checks WA_WEBSOCKET_URL at start-up; nothing unparsable gets here.
  if (!url) return { url: '', default: false };
  const isDefault = url.href === new URL(DEFAULT_WA_WEBSOCKET_URL).href;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return { url: url.href, default: isDefault };
}
