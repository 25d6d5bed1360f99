import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { TOO_MANY_ATTEMPTS } from '../../auth/rate-limit/rate-limit.decorator.js';
import { INVALID_PHONE } from '../../inbox/dto/phone-number.decorator.js';
import { PHONE_PATTERN } from '../../inbox/jid.js';
import { LOOKUP_TIMEOUT_TEXT } from '../session/scan-sessions.port.js';
import { NumberCheckResponse } from './dto/number-check.dto.js';
import { LIVE_CHECKS_PER_MINUTE, NumberCheckService } from './number-check.service.js';

/** Whether a phone number is on WhatsApp, asked through the workspace's linked number (docs/chat.md). */
@ApiTags('chat')
@Controller('api/chat')
export class NumberCheckController {
  constructor(private readonly checks: NumberCheckService) {}

  @Member()
  @Get('check')
  @ApiOperation({
    summary: 'Whether a phone number is on WhatsApp, asked through the linked number',
    description:
      "Answers from this workspace's earlier check of the number while it is fresh (`cached: true`): 7 days for a number on WhatsApp, " +
      '6 hours for one that is not; otherwise asks WhatsApp now and stores the answer. Checks asked of WhatsApp are limited to ' +
      `${LIVE_CHECKS_PER_MINUTE} per minute per workspace (a fixed minute from the first of them); cached answers do not count, nor does ` +
      "the check the inbox makes before a conversation's first message. A live check needs the number connected; a cached answer does not",
  })
  @ApiQuery({
    name: 'phone',
    required: true,
    schema: { type: 'string', pattern: PHONE_PATTERN },
    example: '+4915123456789',
    description: `The number, E.164 digits with or without \`+\`; spaces, dots, dashes and brackets are also accepted; anything else is 400 \`${INVALID_PHONE}\``,
  })
  @ApiOkResponse({ type: NumberCheckResponse, description: 'The answer, from the cache (`cached: true`) or from WhatsApp now' })
  @ApiErrors({
    400: INVALID_PHONE,
    409: '`chat is not connected`: no open socket for a check that is not cached',
    502: `\`${LOOKUP_TIMEOUT_TEXT}\`: WhatsApp gave no answer within 10 seconds (retry)`,
  })
  @ApiTooManyRequestsResponse({
    description: `\`${TOO_MANY_ATTEMPTS}\`: the workspace asked WhatsApp ${LIVE_CHECKS_PER_MINUTE} times in this minute`,
    headers: { 'Retry-After': { description: 'Seconds until the minute resets', schema: { type: 'integer' } } },
  })
  @ApiExtension('x-rate-limit', { limit: LIVE_CHECKS_PER_MINUTE, per: 'minute', scope: 'workspace', counts: 'checks not answered from the cache' })
  check(@Actor() actor: WorkspaceActor, @Query('phone') phone: unknown): Promise<NumberCheckResponse> {
    return this.checks.check(actor.workspaceId, phone);
  }
}
