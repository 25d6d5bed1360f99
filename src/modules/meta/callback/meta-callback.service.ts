import { createHash } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, TOO_DEEP } from '../../../infra/http/json-depth.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { sameText, signatureMatches } from './callback-signature.js';
import { MetaCallbackRepository } from './meta-callback.repository.js';

export const CALLBACK_UNCONFIGURED = 'cloud channel callbacks are not configured (META_APP_SECRET)';
export const SIGNATURE_MISSING = 'missing X-Hub-Signature-256 signature';
export const SIGNATURE_INVALID = 'invalid X-Hub-Signature-256 signature';
export const MALFORMED_PAYLOAD = 'malformed JSON body';
export const NOT_AN_OBJECT = 'callback payload must be a JSON object';
export const VERIFICATION_FAILED = 'webhook verification failed';

/** The provider sends up to 3 MB; the next power of two leaves room without inviting abuse. */
export const CALLBACK_LIMIT = 4 * 1024 * 1024;

/** Payload of a `meta-callback` job: the stored callback's id. */
export interface MetaCallbackJob {
  callbackId: string;
}

export const callbackJobId = (callbackId: string): string => `meta-callback-${callbackId}`;

// How long an answer to the provider may wait for Redis; past it the sweeper enqueues the job.
const ENQUEUE_WAIT_MS = 2_000;

/**
 * The provider callback's HTTP side (`/api/meta/webhook`): the verification handshake, and for
 * deliveries the signature over the raw bytes, a durable copy in Postgres and a job, before
 * answering 200. Everything else runs in the `meta-callback` queue.
 */
@Injectable()
export class MetaCallbackService {
  private readonly logger = new Logger('MetaCallback');

  constructor(
    private readonly config: AppConfig,
    private readonly repository: MetaCallbackRepository,
    @InjectQueue(QueueName.MetaCallback) private readonly queue: Queue<MetaCallbackJob>,
  ) {}

  /** GET: `hub.mode=subscribe` with the platform's verify token → the challenge, verbatim. */
  verify(query: Record<string, unknown>): string {
    const expected = this.config.meta.verifyToken;
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (!expected || mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !sameText(token, expected)) {
      throw ApiError.forbidden(VERIFICATION_FAILED);
    }
    return challenge;
  }

  /**
   * POST: signature first (nothing is parsed, stored or forwarded without it), then a parse
   * check, then the durable copy. The provider's retry of the same bytes answers 200 and changes
   * nothing.
   */
  async receive(body: Buffer | undefined, signature: string | undefined): Promise<void> {
    if (!signature) throw ApiError.unauthorized(SIGNATURE_MISSING);
    // Signed, but unverifiable here: 503 makes the provider retry (for days) until the secret is back.
    const secret = this.config.meta.appSecret;
    if (!secret) throw new ApiError(503, CALLBACK_UNCONFIGURED);
    const raw = body ?? Buffer.alloc(0);
    if (!signatureMatches(raw, signature, secret)) throw ApiError.unauthorized(SIGNATURE_INVALID);
    assertJsonObject(raw);
    const id = await this.repository.store(createHash('sha256').update(raw).digest('hex'), raw);
    if (id) await this.enqueue(id);
  }

  /** Best effort within a short wait: the row is safe in Postgres, and the sweeper enqueues what this misses. */
  private async enqueue(callbackId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ENQUEUE_WAIT_MS)));
    try {
      const added = this.queue.add('callback', { callbackId }, { jobId: callbackJobId(callbackId) });
      added.catch(() => undefined);
      if ((await Promise.race([added, timeout])) === 'timeout')
        this.logger.warn({ callbackId }, 'callback stored, job not enqueued yet (Redis slow or away): the sweeper will');
    } catch (error) {
      this.logger.warn({ err: error, callbackId }, 'callback stored, job not enqueued: the sweeper will');
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The signed bytes must be a JSON object; a provider never sends deeper than a few levels. */
function assertJsonObject(raw: Buffer): void {
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw ApiError.badRequest(TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw ApiError.badRequest(MALFORMED_PAYLOAD);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw ApiError.badRequest(NOT_AN_OBJECT);
}
