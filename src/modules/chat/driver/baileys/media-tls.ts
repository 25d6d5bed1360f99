import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { createGuardedDispatcher } from '../../../../infra/net/guarded-dispatcher.js';

/** How Baileys reaches media hosts. */
export interface MediaClients {
  /**
   * Downloads (`options.dispatcher`, Baileys fetches with the global fetch): the media of messages,
   * whose `url` / `directPath` the contact who sent them chose, history-sync and app-state blobs.
   * Public addresses only unless ALLOW_PRIVATE_MEDIA_URLS; with WA_MEDIA_CA_FILE it trusts that CA too.
   */
  dispatcher: Dispatcher;
  /**
   * Uploads, only with WA_MEDIA_CA_FILE: Baileys posts with node:https and this agent (`fetchAgent`)
   * to the hosts WhatsApp itself announces (`media_conn`); without it Baileys uses its own.
   */
  agent: HttpsAgent | undefined;
}

/**
 * The media clients of the driver. `pem` (WA_MEDIA_CA_FILE: the WhatsApp simulator's test CA) is
 * trusted next to the system's CAs, with certificate checks on as always, by these clients only:
 * the process's global TLS settings, the WebSocket and every other HTTPS call keep the system's.
 */
export function mediaClients({ allowPrivate, pem }: { allowPrivate: boolean; pem?: string }): MediaClients {
  const ca = pem ? [...rootCertificates, pem] : undefined;
  return {
    dispatcher: createGuardedDispatcher({ allowPrivate, ca }),
    agent: ca ? new HttpsAgent({ ca, keepAlive: true }) : undefined,
  };
}
