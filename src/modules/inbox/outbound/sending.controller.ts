import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import { BODY_NOT_AN_OBJECT } from '../../../infra/http/validation.pipe.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { SendLimitsResponse, SendQueueResponse, UpdateSendLimitsDto } from './dto/sending.dto.js';
import { OutboundQueueService } from './outbound-queue.service.js';
import { boundsRule, SETTING_FIELDS, type SettingField, TYPING_RULE } from './send-settings.js';
import { SendSettingsService } from './send-settings.service.js';

const PACING =
  'Every new message of a number linked by QR code goes through its outbound queue: never closer than `min_gap_ms` plus a random part of ' +
  '`jitter_ms` to the previous send, at most `burst` sends at that gap, then `per_minute`. The Cloud API keeps its own limits';

/** The number's sending settings, its caps' use and its queue (docs/sending.md). */
@ApiTags('chat')
@Controller('api/chat')
export class SendingController {
  constructor(
    private readonly settings: SendSettingsService,
    private readonly queue: OutboundQueueService,
  ) {}

  @Member()
  @Get('limits')
  @ApiOperation({ summary: "The number's pace, caps and what it used of them in the last 24 hours", description: PACING })
  @ApiOkResponse({ type: SendLimitsResponse })
  limits(@Actor() actor: WorkspaceActor): Promise<SendLimitsResponse> {
    return this.settings.read(actor.workspaceId) as Promise<SendLimitsResponse>;
  }

  @ConsoleOnly()
  @Patch('limits')
  @ApiOperation({
    summary: "Change the number's pace and caps (owners and admins in the Console): any subset of the fields, each within its bounds",
    description: `${PACING}. Fields left out keep their value (\`{}\` changes nothing); a workspace that never saved any has the service's defaults (\`defaults\`).`,
  })
  @ApiBody({ type: UpdateSendLimitsDto })
  @ApiOkResponse({ type: SendLimitsResponse, description: 'The settings afterwards' })
  @ApiErrors({
    400: [
      BODY_NOT_AN_OBJECT,
      '`unknown field <name>`',
      TYPING_RULE,
      ...(Object.keys(SETTING_FIELDS) as SettingField[]).filter((field) => field !== 'typing').map(boundsRule),
    ],
  })
  update(@Actor() actor: WorkspaceActor, @Body() body: unknown): Promise<SendLimitsResponse> {
    return this.settings.update(actor.workspaceId, body) as Promise<SendLimitsResponse>;
  }

  @Member()
  @Get('queue')
  @ApiOperation({
    summary: "The number's outbound queue: sends waiting for their turn, next first",
    description:
      'Each waiting message is `pending`; it moves to `sent` (or `failed`) at its turn. Cloud API sends the provider asked to retry later wait here too',
  })
  @ApiOkResponse({ type: SendQueueResponse })
  list(@Actor() actor: WorkspaceActor): Promise<SendQueueResponse> {
    return this.queue.body(actor.workspaceId);
  }
}
