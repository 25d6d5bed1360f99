import { Module } from '@nestjs/common';
import { ScanStatusHooksModule } from '../chat/session/scan-status-hooks.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { WebhookConfigsService } from './configs/webhook-configs.service.js';
import { WebhookRepository } from './configs/webhook.repository.js';
import { WebhookUrlCredentials } from './configs/webhook-url.credentials.js';
import { WebhookUrlPolicy } from './configs/webhook-url.policy.js';
import { DeliveryAttemptService } from './delivery/delivery-attempt.service.js';
import { WebhookMetrics } from './delivery/webhook.metrics.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';
import { DeliveryLogRepository } from './delivery/delivery-log.repository.js';
import { WebhookDeliveriesService } from './delivery/webhook-deliveries.service.js';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { OPENAPI_WEBHOOKS } from '../../infra/http/openapi.js';
import { CatalogueStream } from './events/catalogue-stream.js';
import { webhookOperations } from './events/event-webhooks.openapi.js';
import { InboxEventProducer } from './events/inbox-event.producer.js';
import { ScanChatProducer } from './events/scan-chat.producer.js';
import { SessionStatusProducer } from './events/session-status.producer.js';
import { DrainWakeMarks } from './outbox/drain-wake-marks.js';
import { LocalDrains } from './outbox/local-drains.js';
import { OutboxSweeper } from './outbox/outbox-sweeper.service.js';
import { OutboxRepository } from './outbox/outbox.repository.js';
import { WebhookOutbox } from './outbox/webhook-outbox.service.js';
import { WebhookSecretsModule } from './secret/webhook-secrets.module.js';
import { WebhooksController } from './webhooks.controller.js';

/**
 * Outbound webhooks (docs/contract.md#modules): configs and the signing secret
 * (`configs/`, `secret/`), the event catalogue with the payloads and producers of its events
 * (`events/`: `scan.chat` from ingest, those of inbox changes, `session.status` from the scan
 * session's state-change hooks), the transactional outbox and its
 * sweeper (`outbox/`), and the signed delivery worker, retry policy, log and replays
 * (`delivery/`). Exports `WebhookOutbox`: channels write their own events through it (the meta
 * channel's `meta.chat`, its body from `events/meta-chat.event.ts`).
 */
@Module({
  imports: [InboxModule, WebhookSecretsModule, ScanStatusHooksModule],
  controllers: [WebhooksController],
  providers: [
    WebhookRepository,
    WebhookUrlPolicy,
    WebhookUrlCredentials,
    WebhookConfigsService,
    OutboxRepository,
    WebhookOutbox,
    LocalDrains,
    DrainWakeMarks,
    ScanChatProducer,
    InboxEventProducer,
    SessionStatusProducer,
    CatalogueStream,
    { provide: OPENAPI_WEBHOOKS, useFactory: webhookOperations },
    OutboxSweeper,
    DeliveryRepository,
    DeliveryLogRepository,
    WebhookSender,
    DeliveryAttemptService,
    WebhookMetrics,
    WebhookDeliveriesService,
    WebhookDeliveryProcessor,
  ],
  exports: [WebhookOutbox, CatalogueStream],
})
export class WebhooksModule {}
