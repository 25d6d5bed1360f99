import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { DeliveryRepository } from '../delivery/delivery.repository.js';
import { type CreateWebhookDto, ENABLED_MESSAGE, EVENTS_MESSAGE, type UpdateWebhookDto, URL_MESSAGE } from '../dto/webhook.dto.js';
import type { WebhookResponse } from '../dto/webhook-responses.dto.js';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../entities/webhook.entity.js';
import { WebhookSecretService } from '../secret/webhook-secret.service.js';
import { toWebhookResponse } from '../webhook.mapper.js';
import { WebhookRepository } from './webhook.repository.js';
import { MASK, type StoredWebhookUrl, WebhookUrlCredentials } from './webhook-url.credentials.js';
import { WebhookUrlPolicy } from './webhook-url.policy.js';

/** The contract's list cap (section 8). */
export const MAX_WEBHOOKS = 10;
export const TOO_MANY_WEBHOOKS = `a workspace can have at most ${MAX_WEBHOOKS} webhooks`;
export const WEBHOOK_NOT_FOUND = 'webhook not found';

const distinct = (events: readonly WebhookEventName[]): WebhookEventName[] => WEBHOOK_EVENTS.filter((event) => events.includes(event));

/**
 * Webhook configs: at most 10 per workspace, URLs under the address policy (their credentials
 * sealed, shown masked), an events filter.
 */
@Injectable()
export class WebhookConfigsService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly secrets: WebhookSecretService,
    private readonly credentials: WebhookUrlCredentials,
  ) {}

  async list(workspaceId: string): Promise<WebhookResponse[]> {
    return (await this.webhooks.list(workspaceId)).map(toWebhookResponse);
  }

  async get(workspaceId: string, id: string): Promise<WebhookResponse> {
    const webhook = await this.webhooks.find(workspaceId, id);
    if (!webhook) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    return toWebhookResponse(webhook);
  }

  async create(workspaceId: string, input: CreateWebhookDto): Promise<WebhookResponse> {
    const url = this.credentials.toStore(await this.urls.check(input.url), null);
    // The first webhook of a workspace created before secrets existed: sign from the first event.
    await this.secrets.current(workspaceId);
    const created = await this.webhooks.createWithin(workspaceId, MAX_WEBHOOKS, {
      url,
      events: distinct(input.events ?? WEBHOOK_EVENTS),
      enabled: input.enabled ?? true,
    });
    if (!created) throw ApiError.conflict(TOO_MANY_WEBHOOKS);
    return toWebhookResponse(created);
  }

  async update(workspaceId: string, id: string, input: UpdateWebhookDto): Promise<WebhookResponse> {
    // Validation lets `null` through optional fields; none of these may be emptied.
    const nulls = [input.url === null && URL_MESSAGE, input.events === null && EVENTS_MESSAGE, input.enabled === null && ENABLED_MESSAGE].filter(Boolean);
    if (nulls.length) throw ApiError.badRequest(nulls.join('; '));
    const url = input.url === undefined ? undefined : await this.storedUrl(workspaceId, id, await this.urls.check(input.url));
    const updated = await this.webhooks.update(workspaceId, id, { url, events: input.events && distinct(input.events), enabled: input.enabled });
    if (!updated) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    // A disabled endpoint receives nothing: what waited for it fails (and can be replayed).
    if (input.enabled === false) await this.deliveries.failWaiting(workspaceId, id, 'webhook disabled');
    return toWebhookResponse(updated);
  }

  /** A new URL as stored; a masked credential in it (the form we show) keeps the current one. */
  private async storedUrl(workspaceId: string, id: string, href: string): Promise<StoredWebhookUrl> {
    if (!href.includes(MASK)) return this.credentials.toStore(href, null);
    const current = await this.webhooks.find(workspaceId, id);
    if (!current) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    return this.credentials.toStore(href, current);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.webhooks.delete(workspaceId, id))) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
  }
}
