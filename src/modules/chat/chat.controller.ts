import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiInternalServerErrorResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { ConsoleOnly, Member, SubscriptionExempt } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { QrCodeResponse, SessionStateResponse, SessionStatusResponse } from './dto/chat-responses.dto.js';
import { ScanControlService } from './session/scan-control.service.js';
import { ScanStateService } from './session/scan-state.service.js';

/** The scan channel's session (docs/contract.md#endpoints): link a number by QR, watch it, unlink it. */
@ApiTags('chat')
@Controller('api/chat')
export class ChatController {
  constructor(
    private readonly control: ScanControlService,
    private readonly state: ScanStateService,
  ) {}

  @ConsoleOnly()
  @Post('connect')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start the QR-linked session (a QR code becomes available), or reconnect a linked number; no body' })
  @ApiOkResponse({
    type: SessionStateResponse,
    description: 'The session state once the first QR code is available or the session is connected (waits a few seconds at most)',
  })
  @ApiInternalServerErrorResponse({
    description:
      'The session could not be started; `error` carries the reason (for example no worker process running, or `could not reach WhatsApp: <cause>; call POST /api/chat/connect to try again` when the socket got no answer before the first QR code)',
  })
  connect(@Actor() actor: WorkspaceActor): Promise<SessionStateResponse> {
    return this.control.connect(actor.workspaceId);
  }

  @Member()
  @Get('qr')
  @ApiOperation({ summary: 'The QR code to scan (poll every few seconds while `pending`)' })
  @ApiOkResponse({
    type: QrCodeResponse,
    description:
      'Without a code (not started, already linked, expired, or stopped before a code was shown): `pending: false`, `image: ""` and `error`/`message` saying to call `POST /api/chat/connect` first, that the previous QR code expired, or why the session stopped (e.g. `could not reach WhatsApp: …`)',
  })
  qr(@Actor() actor: WorkspaceActor): Promise<QrCodeResponse> {
    return this.state.qr(actor.workspaceId);
  }

  @Member()
  @Get('status')
  @ApiOperation({ summary: 'The session state plus the history sync; poll until `logged_in` and `connected`' })
  @ApiOkResponse({ type: SessionStatusResponse })
  status(@Actor() actor: WorkspaceActor): Promise<SessionStatusResponse> {
    return this.state.status(actor);
  }

  // Unlinking stays possible without a subscription: an owner can always take the number back.
  @ConsoleOnly()
  @SubscriptionExempt()
  @Post('disconnect')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink the number: logs the companion device out and deletes its keys; no body' })
  @ApiOkResponse({ type: SessionStateResponse, description: 'The session state afterwards (not linked)' })
  @ApiInternalServerErrorResponse({ description: 'The worker holding the session did not answer; `error` says so (retry)' })
  disconnect(@Actor() actor: WorkspaceActor): Promise<SessionStateResponse> {
    return this.control.disconnect(actor.workspaceId);
  }
}
