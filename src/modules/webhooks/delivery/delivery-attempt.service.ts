import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { type StoredWebhookUrl, WebhookUrlCredentials } from '../configs/webhook-url.credentials.js';
import type { AttemptStatus } from '../entities/webhook-attempt.entity.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { WEBHOOK_TEST_EVENT } from '../events/webhook-event.catalogue.js';
import { WebhookSecretService } from '../secret/webhook-secret.service.js';
import { DeliveryRepository } from './delivery.repository.js';
import type { AttemptRecord, AttemptToRecord, DeliveryTarget } from './delivery.types.js';
import { judge, type Verdict } from './retry-policy.js';
import { type SentAttempt, WebhookSender } from './webhook-sender.js';
import { WebhookMetrics } from './webhook.metrics.js';

/**
 * What a scheduled attempt came to: the verdict, when the next attempt is due if any, and its
 * recording (false when the delivery moved on meanwhile: nothing recorded), which the caller may
 * await later (the next delivery of a batch need not wait for it).
 */
export interface ScheduledOutcome {
  verdict: Verdict;
  nextAttemptAt: Date | null;
  recorded: Promise<boolean>;
}

export const TEST_EVENT = WEBHOOK_TEST_EVENT;

// A scheduled attempt is recorded only while its delivery is still pending.
const PENDING_ONLY: readonly DeliveryStatus[] = ['pending'];

/**
 * Makes and records delivery attempts: scheduled ones (the worker, under the retry policy),
 * manual ones (a replay with the same `webhook-id`) and test events. Every attempt is recorded.
 */
@Injectable()
export class DeliveryAttemptService {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: DeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecretService,
    private readonly metrics: WebhookMetrics,
    private readonly urls: WebhookUrlCredentials,
  ) {}

  /** One attempt of a due delivery, sent and judged; its recording settles later. */
  async scheduled(target: DeliveryTarget): Promise<ScheduledOutcome> {
    const sent = await this.send(target);
    const verdict = judge(sent, target.attempts + 1, this.config.webhooks.retryScheduleMs);
    this.metrics.attempted('scheduled', verdict.outcome, sent.durationMs);
    const nextAttemptAt = verdict.outcome === 'retrying' ? new Date(Date.now() + verdict.delayMs) : null;
    const change = {
      deliveryStatus: verdict.outcome === 'retrying' ? 'pending' : verdict.outcome,
      nextAttemptAt,
      disable: verdict.outcome === 'failed' ? verdict.disable : null,
      expected: PENDING_ONLY,
    } as const;
    // The common case (a success, no failure streak of the endpoint to end) shares its statement.
    const recorded =
      verdict.outcome === 'delivered' && !target.failing
        ? this.repository.recordDelivered(this.attemptOf(target, sent, 'delivered', change))
        : this.record(target, sent, verdict.outcome, change).then((record) => record !== null);
    // Handled here too: the caller awaits it later, and a rejection meanwhile must not count as unhandled.
    recorded.catch(() => undefined);
    return { verdict, nextAttemptAt, recorded };
  }

  /**
   * A replay: one attempt now, with the same delivery id (`webhook-id`), whatever the delivery's
   * state. Success makes it delivered; a failure leaves its state (and any scheduled retry) as is.
   */
  async manual(target: DeliveryTarget): Promise<AttemptRecord | null> {
    const sent = await this.send(target);
    const verdict = judge(sent, 1, []);
    const status: AttemptStatus = verdict.outcome === 'delivered' ? 'delivered' : 'failed';
    this.metrics.attempted('manual', status, sent.durationMs);
    return this.record(target, sent, status, {
      deliveryStatus: status === 'delivered' ? 'delivered' : null,
      nextAttemptAt: null,
      disable: verdict.outcome === 'failed' ? verdict.disable : null,
      expected: DELIVERY_STATUSES,
    });
  }

  /** A signed test event to the endpoint, once, recorded as a delivery of its own (null: the webhook was deleted meanwhile). */
  async test(workspaceId: string, webhook: { id: string } & StoredWebhookUrl): Promise<AttemptRecord | null> {
    const id = randomUUID();
    const startedAt = new Date();
    const body = Buffer.from(
      JSON.stringify({ event: TEST_EVENT, workspace_id: workspaceId, webhook_id: webhook.id, timestamp: startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z') }),
      'utf8',
    );
    const sent = await this.sender.send({
      deliveryId: id,
      event: TEST_EVENT,
      url: this.urls.deliveryUrl(webhook),
      body,
      secrets: await this.secrets.signing(workspaceId),
    });
    const delivered = judge(sent, 1, []).outcome === 'delivered';
    this.metrics.attempted('test', delivered ? 'delivered' : 'failed', sent.durationMs);
    return this.repository.recordTest(
      workspaceId,
      webhook.id,
      { id, event: TEST_EVENT, body },
      {
        status: delivered ? 'delivered' : 'failed',
        responseStatus: sent.status,
        error: sent.error,
        durationMs: sent.durationMs,
        startedAt: sent.startedAt,
      },
    );
  }

  private send(target: DeliveryTarget): Promise<SentAttempt> {
    // The real URL (credentials included), unsealed from a cache like the secrets.
    const url = this.urls.deliveryUrl(target);
    // Secrets loaded with the delivery (the worker's case) are unsealed from a cache: no extra turn.
    if (target.secrets)
      return this.sender.send({ deliveryId: target.id, event: target.event, url, body: target.body, secrets: this.secrets.unsealAll(target.secrets) });
    return this.secrets
      .signing(target.workspaceId)
      .then((secrets) => this.sender.send({ deliveryId: target.id, event: target.event, url, body: target.body, secrets }));
  }

  private attemptOf(
    target: DeliveryTarget,
    sent: SentAttempt,
    status: AttemptStatus,
    change: Pick<AttemptToRecord, 'deliveryStatus' | 'nextAttemptAt' | 'disable' | 'expected'>,
  ): AttemptToRecord {
    // One literal of one shape (no spread): the worker builds one per attempt.
    return {
      deliveryId: target.id,
      workspaceId: target.workspaceId,
      webhookId: target.webhookId,
      status,
      responseStatus: sent.status,
      error: sent.error,
      durationMs: sent.durationMs,
      startedAt: sent.startedAt,
      deliveryStatus: change.deliveryStatus,
      nextAttemptAt: change.nextAttemptAt,
      disable: change.disable,
      expected: change.expected,
    };
  }

  private async record(
    target: DeliveryTarget,
    sent: SentAttempt,
    status: AttemptStatus,
    change: Pick<AttemptToRecord, 'deliveryStatus' | 'nextAttemptAt' | 'disable' | 'expected'>,
  ): Promise<AttemptRecord | null> {
    const attempt = this.attemptOf(target, sent, status, change);
    const recorded = await this.repository.record(attempt);
    if (recorded?.disabled)
      await this.repository.failWaiting(target.workspaceId, target.webhookId, `webhook disabled: ${change.disable ?? 'failing for too long'}`);
    return recorded?.record ?? null;
  }
}
