import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import {
  PROXY_URL_CREDENTIALS,
  PROXY_URL_EXTRA,
  PROXY_URL_HOST,
  PROXY_URL_INVALID,
  PROXY_URL_MASKED,
  PROXY_URL_PORT,
  PROXY_URL_SCHEME,
  PROXY_URL_SOCKS_CREDENTIALS,
} from '../../../infra/net/proxy-url.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { PROXY_URL_REQUIRED, PROXY_URL_TOO_LONG, PutScanProxyDto, ScanProxyResponse } from './dto/scan-proxy.dto.js';
import { PROXY_NOT_FOUND, ScanProxyService } from './scan-proxy.service.js';

/**
 * The number's egress proxy (docs/chat.md, "Egress proxy"): its WebSocket and every media
 * transfer go through it. Console owners and admins only, like connect and disconnect: a proxy
 * decides where the number's traffic goes.
 */
@ApiTags('chat')
@ConsoleOnly()
@Controller('api/chat/proxy')
export class ScanProxyController {
  constructor(private readonly proxies: ScanProxyService) {}

  @Get()
  @ApiOperation({ summary: "The egress proxy the number's socket and media use: its own, the service's default (WA_PROXY_URL), or none" })
  @ApiOkResponse({ type: ScanProxyResponse })
  get(@Actor() actor: WorkspaceActor): Promise<ScanProxyResponse> {
    return this.proxies.get(actor.workspaceId);
  }

  @Put()
  @ApiOperation({
    summary:
      "Route the number's socket and media through a proxy (HTTP CONNECT or SOCKS5). Applies from the next connection (POST /api/chat/connect, a restart or a reconnect) and to every media download from now on",
  })
  @ApiOkResponse({ type: ScanProxyResponse, description: 'The proxy as stored, its credential masked' })
  @ApiErrors({
    400: [
      PROXY_URL_REQUIRED,
      PROXY_URL_TOO_LONG,
      PROXY_URL_INVALID,
      PROXY_URL_SCHEME,
      PROXY_URL_EXTRA,
      PROXY_URL_PORT,
      PROXY_URL_HOST,
      PROXY_URL_CREDENTIALS,
      PROXY_URL_SOCKS_CREDENTIALS,
      PROXY_URL_MASKED,
    ],
  })
  put(@Actor() actor: WorkspaceActor, @Body() dto: PutScanProxyDto): Promise<ScanProxyResponse> {
    return this.proxies.set(actor.workspaceId, dto.url);
  }

  @Delete()
  @ApiOperation({ summary: "Remove the number's own proxy: WA_PROXY_URL applies again if set, else it connects directly (from the next connection)" })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 404: `\`${PROXY_NOT_FOUND}\`: the number has no proxy of its own` })
  async remove(@Actor() actor: WorkspaceActor): Promise<OkResponse> {
    await this.proxies.clear(actor.workspaceId);
    return { ok: true };
  }
}
