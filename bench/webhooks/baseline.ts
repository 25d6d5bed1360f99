import { guardedRequest } from '../../src/infra/net/guarded-http.js';
import { signatureHeaders } from '../../src/modules/webhooks/delivery/webhook-signature.js';
import type { SigningSecrets } from '../../src/modules/webhooks/secret/webhook-secret.service.js';

/**
 * The delivery stage without the outbox: sign each body both ways and POST it with the service's
 * own HTTP client (guardedRequest, same keep-alive pool and headers), `concurrency` at a time.
 * Returns the wall time in ms.
 */
export async function baselineDrain(
  url: string,
  deliveries: readonly { id: string; body: Buffer }[],
  secrets: SigningSecrets,
  concurrency: number,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<number> {
  const target = new URL(url);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) {
        const { id, body } = deliveries[next++]!;
        const timestamp = Math.floor(Date.now() / 1000);
        const response = await guardedRequest({
          url: target,
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'whatsapp-inbox-webhooks/1',
            'X-Svc-Event': 'scan.chat',
            ...signatureHeaders(id, timestamp, body, secrets),
          },
          body,
          timeoutMs: options.timeoutMs,
          allowPrivate: options.allowPrivate,
          maxBodyBytes: 64 * 1024,
          truncateBody: true,
        });
        if (response.status !== 200) throw new Error(`baseline POST answered ${response.status}`);
      }
    }),
  );
  return performance.now() - started;
}
