import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/decorators/access.decorators.js';
import { HealthReport, HealthService } from './health.service.js';

@ApiTags('operations')
@Controller('api/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Whether the service and its dependencies (Postgres, Redis) are up' })
  @ApiOkResponse({ type: HealthReport, description: '`{status:"ok", checks:{database:"up", redis:"up"}}`' })
  @ApiServiceUnavailableResponse({ type: HealthReport, description: '`status:"degraded"` with the failing check `"down"`' })
  async get(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.health.check();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
