import type { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { createGuardedDispatcher } from '../../../../infra/net/guarded-dispatcher.js';
import { createProxyDispatcher, ProxyHttpAgent } from '../../../../infra/net/proxy-agents.js';
import type { ProxyEndpoint } from '../../../../infra/net/proxy-url.js';

/** How Baileys reaches media hosts, and WhatsApp's WebSocket when a proxy is in between. */
export interface MediaClients {
  /**
   * Downloads (`options.dispatcher`, Baileys fetches with the global fetch): the media of messages,
   * whose `url` / `directPath` the contact who sent them chose, history-sync and app-state blobs.
   * Public addresses only unless ALLOW_PRIVATE_MEDIA_URLS; with WA_MEDIA_CA_FILE it trusts that CA too.
   */
  dispatcher: Dispatcher;
  /**
   * Uploads (`fetchAgent`: Baileys posts with node:https and this agent) to the hosts WhatsApp
   * itself announces (`media_conn`): with WA_MEDIA_CA_FILE or a proxy; otherwise Baileys' default.
   */
  agent: HttpAgent | undefined;
  /** The WebSocket's agent (`agent`), only with a proxy: the socket then goes through it too. */
  socketAgent: HttpAgent | undefined;
}

export interface MediaClientsOptions {
  allowPrivate: boolean;
  pem?: string;
  /** The number's egress proxy (its own, or WA_PROXY_URL): the socket and every transfer use it. */
  proxy?: ProxyEndpoint | null;
}

/**
 * The media clients of the driver. `pem` (WA_MEDIA_CA_FILE: the WhatsApp simulator's test CA) is
 * trusted next to the system's CAs, with certificate checks on as always, by the media clients
 * only: the process's global TLS settings, the WebSocket and every other HTTPS call keep the
 * system's. With a `proxy`, the WebSocket, uploads and downloads all tunnel through it
 * (`src/infra/net/proxy-agents.ts`); downloads keep the address policy on their targets.
 */
export function mediaClients({ allowPrivate, pem, proxy }: MediaClientsOptions): MediaClients {
  const ca = pem ? [...rootCertificates, pem] : undefined;
  if (proxy) {
    return {
      dispatcher: createProxyDispatcher({ proxy, allowPrivate, ca }),
      agent: new ProxyHttpAgent(proxy, { ca }),
      socketAgent: new ProxyHttpAgent(proxy),
    };
  }
  return {
    dispatcher: createGuardedDispatcher({ allowPrivate, ca }),
    agent: ca ? new HttpsAgent({ ca, keepAlive: true }) : undefined,
    socketAgent: undefined,
  };
}
