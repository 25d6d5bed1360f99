import { Controller, Get, Headers } from '@nestjs/common';
import { ApiError } from '../../src/infra/http/api-error.js';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import type { WorkspaceResponse } from '../../src/modules/tenants/dto/workspace.dto.js';
import { WorkspaceService } from '../../src/modules/tenants/workspaces/workspace.service.js';

/**
 * `GET /api/workspace` marked public: the same service call as the real route, with the
 * workspace taken from `X-Tenant-ID` instead of the guard chain. Only the bench registers it.
 */
@Controller('bench')
export class BenchPublicController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @Public()
  @Get('workspace')
  get(@Headers('x-tenant-id') workspaceId: string | undefined): Promise<WorkspaceResponse> {
    if (!workspaceId) throw ApiError.badRequest('workspace required (X-Tenant-ID)');
    // What the guard chain builds for an API key, so the service does the same work.
    return this.workspaces.get({
      workspaceId,
      via: 'api_key',
      role: 'agent',
      userId: null,
      apiKeyId: null,
      subscriptionStatus: 'active',
      seesAllConversations: true,
    });
  }
}
