import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { DeliveryRepository } from '../delivery/delivery.repository.js';
import { CHANNEL_NAMES, type ChannelName } from '../../channels/channel-gateway.port.js';
import { type CreateWebhookDto, ENABLED_MESSAGE, EVENTS_MESSAGE, INCLUDE_GROUPS_MESSAGE, type UpdateWebhookDto, URL_MESSAGE } from '../dto/webhook.dto.js';
import type { WebhookResponse } from '../dto/webhook-responses.dto.js';
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENTS, type WebhookEventName } from '../events/webhook-event.catalogue.js';
import { WebhookSecretService } from '../secret/webhook-secret.service.js';
import { toWebhookResponse } from '../webhook.mapper.js';
import { WebhookRepository } from './webhook.repository.js';
import { MASK, WebhookUrlCredentials } from './webhook-url.credentials.js';
import { WebhookUrlPolicy } from './webhook-url.policy.js';

/** The contract's list cap (docs/contract.md#limits). */
export const MAX_WEBHOOKS = 10;
export const TOO_MANY_WEBHOOKS = `a workspace can have at most ${MAX_WEBHOOKS} webhooks`;
export const WEBHOOK_NOT_FOUND = 'webhook not found';

const distinct = (events: readonly WebhookEventName[]): WebhookEventName[] => WEBHOOK_EVENTS.filter((event) => events.includes(event));
// Stored once each, in the catalogue's order of channels; null stays null (every channel).
const channelsOf = (channels: readonly ChannelName[] | null | undefined): ChannelName[] | null | undefined =>
  channels && CHANNEL_NAMES.filter((channel) => channels.includes(channel));

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
      events: distinct(input.events ?? DEFAULT_WEBHOOK_EVENTS),
      enabled: input.enabled ?? true,
      channels: channelsOf(input.channels) ?? null,
      includeGroups: input.include_groups ?? true,
    });
    if (!created) throw ApiError.conflict(TOO_MANY_WEBHOOKS);
    return toWebhookResponse(created);
  }

  async update(workspaceId: string, id: string, input: UpdateWebhookDto): Promise<WebhookResponse> {
    // Validation lets `null` through optional fields; none of these may be emptied.
    const nulls = [
      input.url === null && URL_MESSAGE,
      input.events === null && EVENTS_MESSAGE,
      input.enabled === null && ENABLED_MESSAGE,
      input.include_groups === null && INCLUDE_GROUPS_MESSAGE,
    ].filter(Boolean);
    if (nulls.length) throw ApiError.badRequest(nulls.join('; '));
    const href = input.url === undefined ? undefined : await this.urls.check(input.url);
    const changes = {
      events: input.events && distinct(input.events),
      enabled: input.enabled,
      channels: channelsOf(input.channels),
      includeGroups: input.include_groups,
    };
    // A masked credential stands for the stored one: read and replaced under the row's lock, so a
    // PATCH at the same time with a new password cannot be undone by this one writing the old.
    const updated = href?.includes(MASK)
      ? await this.webhooks.updateFrom(workspaceId, id, (current) => ({ ...changes, url: this.credentials.toStore(href, current) }))
      : await this.webhooks.update(workspaceId, id, { ...changes, url: href === undefined ? undefined : this.credentials.toStore(href, null) });
    if (!updated) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
    // A disabled endpoint receives nothing: what waited for it fails (and can be replayed).
    if (input.enabled === false) await this.deliveries.failWaiting(workspaceId, id, 'webhook disabled');
    return toWebhookResponse(updated);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.webhooks.delete(workspaceId, id))) throw ApiError.notFound(WEBHOOK_NOT_FOUND);
  }
}
