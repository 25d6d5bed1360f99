// What the delivery worker and the delivery log pass around: deliveries to attempt, attempts recorded.
import type { AttemptStatus } from '../entities/webhook-attempt.entity.js';
import type { DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import type { SealedSecrets } from '../secret/webhook-secret.repository.js';

/** A delivery with everything an attempt needs: its event's bytes, the endpoint, the sealed secrets. */
export interface DeliveryTarget {
  id: string;
  workspaceId: string;
  webhookId: string;
  status: DeliveryStatus;
  attempts: number;
  event: string;
  body: Buffer;
  /** The endpoint's URL as shown, and sealed whole when it carries credentials (WebhookUrlCredentials.deliveryUrl). */
  url: string;
  sealedUrl: string | null;
  enabled: boolean;
  /** The endpoint is in a streak of failures (a success must end it). */
  failing: boolean;
  /** Null when the workspace has no secret yet (the service creates it). */
  secrets: SealedSecrets | null;
}

/** One attempt as recorded. */
export interface AttemptRecord {
  id: string;
  deliveryId: string;
  event: string;
  status: AttemptStatus;
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
}

export interface AttemptToRecord {
  deliveryId: string;
  workspaceId: string;
  webhookId: string;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  startedAt: Date;
  /** The delivery's status after this attempt; null keeps it (a manual retry that failed). */
  deliveryStatus: DeliveryStatus | null;
  /** When the next attempt is due (a retry); null keeps it. */
  nextAttemptAt: Date | null;
  /** Disable the endpoint with this reason (410 Gone). */
  disable: string | null;
  /** Record only while the delivery is in one of these states (a concurrent change wins). */
  expected: readonly DeliveryStatus[];
}
