import type { EntityClass } from '../../infra/database/data-source-options.js';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity.js';
import { WebhookEventEntity } from './entities/webhook-event.entity.js';
import { WebhookSecretEntity } from './entities/webhook-secret.entity.js';
import { WebhookEntity } from './entities/webhook.entity.js';

/** The webhooks module's TypeORM entities, gathered by `src/entities.ts`. */
export const WEBHOOKS_ENTITIES: readonly EntityClass[] = [WebhookEntity, WebhookSecretEntity, WebhookEventEntity, WebhookDeliveryEntity, WebhookAttemptEntity];
