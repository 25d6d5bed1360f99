import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';

/** How Baileys reaches media hosts that present a certificate from an extra CA. */
export interface MediaTls {
  /** Uploads: Baileys posts with node:https and this agent (`fetchAgent`). */
  agent: HttpsAgent;
  /** Downloads: Baileys fetches with the global fetch and this dispatcher (`options.dispatcher`). */
  dispatcher: Dispatcher;
}

/**
 * Media clients that trust the system's CAs plus `pem` (WA_MEDIA_CA_FILE: the WhatsApp simulator's
 * test CA), with certificate checks on as always. Only these clients are affected: the process's
 * global TLS settings, the WebSocket and every other HTTPS call keep the system's CAs alone.
 * undici is loaded only here, so a service without the setting never loads it.
 */
export async function mediaTls(pem: string): Promise<MediaTls> {
  const { Agent } = await import('undici');
  const ca = [...rootCertificates, pem];
  return { agent: new HttpsAgent({ ca, keepAlive: true }), dispatcher: new Agent({ connect: { ca } }) };
}
