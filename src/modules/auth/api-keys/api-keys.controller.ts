import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../auth.types.js';
import { ConsoleOnly, SubscriptionExempt } from '../decorators/access.decorators.js';
import { Actor } from '../decorators/actor.decorator.js';
import { toApiKeyResponse, toCreatedApiKeyResponse } from './api-key.mapper.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { UuidParamPipe } from './uuid-param.pipe.js';

/**
 * API keys are Console administration (owner/admin sessions; keys get 403). Without an active
 * subscription an owner may still list keys, but not create or revoke them (402): a key of such a
 * workspace gets 402 on every route but `GET /api/workspace` anyway.
 */
@ApiTags('api-keys')
@ConsoleOnly()
@Controller('api/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a key (`read`, or `write`; `full` and `full_access` mean `write`), valid 365 days' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse, description: '`key` is shown this once and never again.' })
  async create(@Actor() actor: WorkspaceActor, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const { entity, key } = await this.keys.create(actor.workspaceId, body.name, body.scope, actor.userId);
    return toCreatedApiKeyResponse(entity, key);
  }

  @SubscriptionExempt()
  @Get()
  @ApiOperation({ summary: "The workspace's keys, revoked ones included (never the key itself)" })
  @ApiOkResponse({ type: [ApiKeyResponse] })
  async list(@Actor() actor: WorkspaceActor): Promise<ApiKeyResponse[]> {
    return (await this.keys.list(actor.workspaceId)).map(toApiKeyResponse);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a key: every server refuses it from the next request on' })
  @ApiOkResponse({ type: OkResponse, description: 'The next request with the key gets 401.' })
  @ApiErrors({
    400: 'invalid API key id',
    404: "`API key not found`: unknown, already revoked, or another workspace's",
    503: 'the key is revoked but not every server could be told yet; retry the request',
  })
  async revoke(@Actor() actor: WorkspaceActor, @Param('id', new UuidParamPipe('invalid API key id')) id: string): Promise<{ ok: true }> {
    await this.keys.revoke(actor.workspaceId, id);
    return { ok: true };
  }
}
