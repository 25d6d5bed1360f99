import { Controller, Get, Header, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { declareRawBodyRoute, type RawBodyRequest } from '../../../infra/http/raw-body-routes.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { TOO_DEEP } from '../../../infra/http/json-depth.js';
import { Public } from '../../auth/decorators/access.decorators.js';
import {
  CALLBACK_LIMIT,
  CALLBACK_UNCONFIGURED,
  MALFORMED_PAYLOAD,
  MetaCallbackService,
  NOT_AN_OBJECT,
  SIGNATURE_INVALID,
  SIGNATURE_MISSING,
  VERIFICATION_FAILED,
} from './meta-callback.service.js';

export const CALLBACK_PATH = '/api/meta/webhook';

declareRawBodyRoute({ method: 'POST', path: CALLBACK_PATH, limit: CALLBACK_LIMIT });

/** The provider's callback URL (`<PUBLIC_URL>/api/meta/webhook`): public, authenticated by the provider's signature. */
@ApiTags('cloud channel')
@Public()
@Controller(CALLBACK_PATH.slice(1))
export class MetaCallbackController {
  constructor(private readonly callbacks: MetaCallbackService) {}

  @Get()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  @ApiOperation({ summary: "The provider's verification of the callback URL: answers `hub.challenge` verbatim" })
  @ApiQuery({ name: 'hub.mode', required: false, schema: { type: 'string', enum: ['subscribe'] }, description: 'always `subscribe`' })
  @ApiQuery({ name: 'hub.verify_token', required: false, schema: { type: 'string' }, description: 'must equal META_VERIFY_TOKEN' })
  @ApiQuery({ name: 'hub.challenge', required: false, schema: { type: 'string' }, description: 'echoed as the whole body' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The `hub.challenge` text', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors({ 403: `\`${VERIFICATION_FAILED}\`: not \`hub.mode=subscribe\`, a wrong \`hub.verify_token\`, or META_VERIFY_TOKEN unset` })
  verify(@Query() query: Record<string, unknown>): string {
    return this.callbacks.verify(query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The provider\'s callback. The signature (HMAC-SHA256 of the raw body with the app secret) is checked before anything is parsed; the payload is stored, then processed in the background (messages, statuses, templates) and forwarded as `meta.chat` to each workspace it concerns, each getting only its own part: the exact bytes when the whole callback is the workspace\'s, else `{"object", "entry": [its entries]}` (each entry\'s bytes as sent, an entry of several workspaces cut to the workspace\'s `changes`). Entries for numbers no workspace has reach nobody. A retry of the same bytes changes nothing',
  })
  @ApiBody({
    description: "The provider's payload, read as raw bytes (any Content-Type; the provider sends `application/json`)",
    schema: {
      type: 'object',
      properties: {
        object: { type: 'string', example: 'whatsapp_business_account' },
        entry: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, changes: { type: 'array', items: { type: 'object' } } } } },
      },
    },
  })
  @ApiHeader({ name: 'X-Hub-Signature-256', required: true, description: '`sha256=<hex HMAC-SHA256(META_APP_SECRET, raw body)>`' })
  @ApiOkResponse({ type: OkResponse, description: 'Stored (or a retry of a stored callback); processing follows' })
  @ApiExtension('x-raw-body', { limit: CALLBACK_LIMIT, signed: 'X-Hub-Signature-256' })
  @ApiErrors({
    400: [MALFORMED_PAYLOAD, NOT_AN_OBJECT, TOO_DEEP],
    401: [SIGNATURE_MISSING, SIGNATURE_INVALID],
    413: '`payload too large`: above 4 MiB',
    503: `\`${CALLBACK_UNCONFIGURED}\``,
  })
  async receive(@Req() req: RawBodyRequest, @Headers('x-hub-signature-256') signature: string | undefined): Promise<OkResponse> {
    await this.callbacks.receive(req.rawBody, signature);
    return { ok: true };
  }
}
