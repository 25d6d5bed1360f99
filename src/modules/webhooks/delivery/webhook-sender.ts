import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { guardedRequest, RequestTimeoutError } from '../../../infra/net/guarded-http.js';
import { AddressRefusedError } from '../../../infra/net/guarded-lookup.js';
import type { SigningSecrets } from '../secret/webhook-secret.service.js';
import { type AttemptResult, parseRetryAfter } from './retry-policy.js';
import { signatureHeaders } from './webhook-signature.js';

/** What one delivery attempt sends. */
export interface Outgoing {
  deliveryId: string;
  event: string;
  url: string;
  body: Buffer;
  secrets: SigningSecrets;
}

export interface SentAttempt extends AttemptResult {
  startedAt: Date;
  durationMs: number;
}

// The answer's body is read and dropped (so the connection can be reused), at most this much.
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'whatsapp-inbox-webhooks/1';

/**
 * One signed POST to an endpoint: the address policy checked on the address connected to (unless
 * ALLOW_PRIVATE_WEBHOOKS), redirects never followed, WEBHOOK_TIMEOUT_MS until the answer's status
 * line and headers (its body is ignored).
 * Never throws: every failure is an `AttemptResult` with its reason in words.
 */
@Injectable()
export class WebhookSender {
  constructor(private readonly config: AppConfig) {}

  async send(outgoing: Outgoing): Promise<SentAttempt> {
    const startedAt = new Date();
    const result = await this.exchange(outgoing, startedAt);
    return {
      status: result.status,
      error: result.error,
      retryAfterMs: result.retryAfterMs,
      refused: result.refused,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
    };
  }

  // Parsed endpoint URLs: a drain sends many deliveries to one URL (never mutated once parsed).
  private readonly urls = new Map<string, URL | null>();

  private parsed(href: string): URL | null {
    let url = this.urls.get(href);
    if (url === undefined) {
      if (this.urls.size >= 1000) this.urls.clear();
      this.urls.set(href, (url = URL.parse(href)));
    }
    return url;
  }

  private async exchange(outgoing: Outgoing, startedAt: Date): Promise<AttemptResult> {
    const { webhooks } = this.config;
    const url = this.parsed(outgoing.url);
    if (!url) return failure(null, 'refused: not a valid URL', true);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && webhooks.allowHttp)) {
      return failure(null, `refused: ${url.protocol}// URLs are not allowed`, true);
    }
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    try {
      const response = await guardedRequest({
        url,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          'X-Svc-Event': outgoing.event,
          ...signatureHeaders(outgoing.deliveryId, timestamp, outgoing.body, outgoing.secrets),
        },
        body: outgoing.body,
        timeoutMs: webhooks.timeoutMs,
        allowPrivate: webhooks.allowPrivate,
        maxBodyBytes: MAX_ANSWER_BYTES,
        truncateBody: true,
        // A 2xx counts when its status line arrives: a body that never ends is no reason to resend.
        headOnly: true,
      });
      const { status } = response;
      if (status >= 200 && status < 300) return { status, error: null, retryAfterMs: null, refused: false };
      const location = response.headers.location;
      const error = status >= 300 && status < 400 ? `redirect not followed (HTTP ${status}${location ? ` to ${location}` : ''})` : `HTTP ${status}`;
      const retryAfter = status === 429 || status === 503 ? parseRetryAfter(firstOf(response.headers['retry-after'])) : null;
      return { status, error, retryAfterMs: retryAfter, refused: false };
    } catch (error) {
      if (error instanceof AddressRefusedError) return failure(null, `refused: ${error.address} is a ${error.reason} address`, true);
      if ((error as NodeJS.ErrnoException).code === 'ENOTFOUND') return failure(null, `${url.hostname} could not be resolved`, false);
      if (error instanceof RequestTimeoutError) return failure(null, `timed out after ${webhooks.timeoutMs} ms`, false);
      const code = (error as NodeJS.ErrnoException).code;
      return failure(null, code ? `network error: ${code}` : `network error: ${(error as Error).message}`, false);
    }
  }
}

const failure = (status: number | null, error: string, refused: boolean): AttemptResult => ({ status, error, retryAfterMs: null, refused });
const firstOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
