import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../infra/http/openapi.js';
import { MetricsRegistry } from '../../infra/metrics/metrics.registry.js';
import { Public } from '../auth/decorators/access.decorators.js';
import { MetricsTokenGuard } from './metrics-token.guard.js';

/** `GET /metrics` (outside `/api`, where Prometheus looks by default). */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  // Public to the guard chain (no API key or session applies); METRICS_TOKEN, when set, is checked here.
  @Public()
  @UseGuards(MetricsTokenGuard)
  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics of this process and cluster-wide gauges (text exposition format)',
    description:
      'Public unless `METRICS_TOKEN` is set; then `Authorization: Bearer <METRICS_TOKEN>` is required. ' +
      'Series and their meaning: docs/operations.md. With `METRICS_PORT` set (how worker processes are scraped) ' +
      'the same is served on that port only, and this route answers 404.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4', schema: { type: 'string' } })
  @ApiErrors({
    401: '`unauthorized`: METRICS_TOKEN is set and the request does not carry it',
    404: '`not found` (`code: not_found`): METRICS_PORT is set, and metrics are served on that port only',
  })
  async get(@Res({ passthrough: true }) res: Response): Promise<string> {
    const text = await this.metrics.exposition();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return text;
  }
}
