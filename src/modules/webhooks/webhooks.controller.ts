import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../infra/http/ok.response.js';
import { ApiErrors } from '../../infra/http/openapi.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { ConsoleOnly } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { IdPipe } from '../inbox/dto/id.pipe.js';
import { TOO_MANY_WEBHOOKS, WEBHOOK_NOT_FOUND, WebhookConfigsService } from './configs/webhook-configs.service.js';
import { URL_MASKED } from './configs/webhook-url.credentials.js';
import { URL_MALFORMED, URL_NOT_HTTP, URL_NOT_HTTPS, URL_PRIVATE } from './configs/webhook-url.policy.js';
import { DELIVERY_NOT_FOUND, WebhookDeliveriesService } from './delivery/webhook-deliveries.service.js';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto.js';
import { DeliveryAttemptResponse, WebhookResponse, WebhookSecretResponse, WebhookStatsResponse } from './dto/webhook-responses.dto.js';
import { WebhookSecretService } from './secret/webhook-secret.service.js';

const WebhookId = new IdPipe('invalid webhook id');
const DeliveryId = new IdPipe('invalid delivery id');
const URL_ERRORS = [URL_NOT_HTTPS, URL_NOT_HTTP, URL_MALFORMED, URL_PRIVATE, URL_MASKED];

/**
 * Outbound webhooks (docs/webhooks.md): Console administration, so session owners and admins
 * only (keys 403 `API keys cannot administer workspaces`, agents 403 `admin required`).
 */
@ApiTags('webhooks')
@ConsoleOnly()
@Controller('api/webhooks')
export class WebhooksController {
  constructor(
    private readonly configs: WebhookConfigsService,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly secrets: WebhookSecretService,
  ) {}

  // Fixed paths before `:id`, so `stats` and `secret` are never read as ids.
  @Get('stats')
  @ApiOperation({ summary: 'Outbox figures: pending now, delivered and failed in the last 24 hours, age of the oldest pending delivery' })
  @ApiOkResponse({ type: WebhookStatsResponse })
  stats(@Actor() actor: WorkspaceActor): Promise<WebhookStatsResponse> {
    return this.deliveries.stats(actor.workspaceId);
  }

  @Get('secret')
  @ApiOperation({ summary: "The workspace's signing secret (`whsec_…`), created with the workspace" })
  @ApiOkResponse({ type: WebhookSecretResponse })
  async secret(@Actor() actor: WorkspaceActor): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.current(actor.workspaceId) };
  }

  @Post('secret/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret; the previous one also signs `webhook-signature` for 24 hours' })
  @ApiOkResponse({ type: WebhookSecretResponse })
  async rotate(@Actor() actor: WorkspaceActor): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.rotate(actor.workspaceId) };
  }

  @Get()
  @ApiOperation({ summary: "The workspace's webhooks (at most 10), oldest first" })
  @ApiOkResponse({ type: [WebhookResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<WebhookResponse[]> {
    return this.configs.list(actor.workspaceId);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a webhook' })
  @ApiCreatedResponse({ type: WebhookResponse })
  @ApiErrors({ 400: URL_ERRORS, 409: TOO_MANY_WEBHOOKS })
  create(@Actor() actor: WorkspaceActor, @Body() body: CreateWebhookDto): Promise<WebhookResponse> {
    return this.configs.create(actor.workspaceId, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrors({ 400: 'invalid webhook id', 404: WEBHOOK_NOT_FOUND })
  get(@Actor() actor: WorkspaceActor, @Param('id', WebhookId) id: string): Promise<WebhookResponse> {
    return this.configs.get(actor.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change url, events or enabled; enabling clears a disabled reason, disabling fails what waits' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrors({ 400: ['invalid webhook id', ...URL_ERRORS], 404: WEBHOOK_NOT_FOUND })
  update(@Actor() actor: WorkspaceActor, @Param('id', WebhookId) id: string, @Body() body: UpdateWebhookDto): Promise<WebhookResponse> {
    return this.configs.update(actor.workspaceId, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook with its deliveries and their log' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid webhook id', 404: WEBHOOK_NOT_FOUND })
  async remove(@Actor() actor: WorkspaceActor, @Param('id', WebhookId) id: string): Promise<{ ok: true }> {
    await this.configs.remove(actor.workspaceId, id);
    return { ok: true };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'The last 100 delivery attempts, newest first' })
  @ApiOkResponse({ type: [DeliveryAttemptResponse] })
  @ApiErrors({ 400: 'invalid webhook id', 404: WEBHOOK_NOT_FOUND })
  log(@Actor() actor: WorkspaceActor, @Param('id', WebhookId) id: string): Promise<DeliveryAttemptResponse[]> {
    return this.deliveries.log(actor.workspaceId, id);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again now, with the same `webhook-id`; answers the attempt (whatever the endpoint answered)' })
  @ApiOkResponse({ type: DeliveryAttemptResponse })
  @ApiErrors({ 400: ['invalid webhook id', 'invalid delivery id'], 404: [WEBHOOK_NOT_FOUND, DELIVERY_NOT_FOUND] })
  retry(
    @Actor() actor: WorkspaceActor,
    @Param('id', WebhookId) id: string,
    @Param('delivery_id', DeliveryId) deliveryId: string,
  ): Promise<DeliveryAttemptResponse> {
    return this.deliveries.retry(actor.workspaceId, id, deliveryId);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a signed `webhook.test` event now; answers the attempt (whatever the endpoint answered)' })
  @ApiOkResponse({ type: DeliveryAttemptResponse })
  @ApiErrors({ 400: 'invalid webhook id', 404: WEBHOOK_NOT_FOUND })
  test(@Actor() actor: WorkspaceActor, @Param('id', WebhookId) id: string): Promise<DeliveryAttemptResponse> {
    return this.deliveries.test(actor.workspaceId, id);
  }
}
