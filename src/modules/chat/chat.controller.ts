import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiInternalServerErrorResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../infra/http/openapi.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { ConsoleOnly, Member, SubscriptionExempt } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { INVALID_PHONE } from '../inbox/dto/phone-number.decorator.js';
import { PairingCodeResponse, QrCodeResponse, SessionStateResponse, SessionStatusResponse } from './dto/chat-responses.dto.js';
import { PairingCodeRequestDto } from './dto/pairing-code.dto.js';
import { ScanControlService } from './session/scan-control.service.js';
import { ALREADY_LINKED } from './session/scan-session.runner.js';
import { ScanStateService } from './session/scan-state.service.js';
import { ChatStatusService } from './session/chat-status.service.js';

/**
 * The scan channel's session (docs/contract.md#endpoints, docs/chat.md#endpoints): link a number
 * by QR or pairing code, watch it, stop and restart it, unlink it.
 */
@ApiTags('chat')
@Controller('api/chat')
export class ChatController {
  constructor(
    private readonly control: ScanControlService,
    private readonly state: ScanStateService,
    private readonly statuses: ChatStatusService,
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

  @ConsoleOnly()
  @Post('pairing-code')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Link by a code typed on the phone instead of a QR code (Linked devices → Link a device → Link with phone number instead)',
    description:
      'Starts the session as connect does and asks WhatsApp for a pairing code for `phone`; the status says `state: pairing_code` until the phone ' +
      'entered it, then links exactly as after a scan. Asking again gives a new code. No QR code is shown meanwhile',
  })
  @ApiOkResponse({ type: PairingCodeResponse, description: 'The code to type on the phone, and until when the session waits for it' })
  @ApiErrors({ 400: INVALID_PHONE, 409: ALREADY_LINKED })
  @ApiInternalServerErrorResponse({ description: 'The session could not be started, or WhatsApp did not offer a registration in time; `error` says which' })
  pairingCode(@Actor() actor: WorkspaceActor, @Body() dto: PairingCodeRequestDto): Promise<PairingCodeResponse> {
    return this.control.pairingCode(actor.workspaceId, dto.phone);
  }

  // Stopping stays possible without a subscription, as disconnecting does.
  @ConsoleOnly()
  @SubscriptionExempt()
  @Post('stop')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stop the session and keep the link: the socket closes and nothing reconnects until connect (or restart); no body',
    description: 'The number stays linked and its keys are kept. A session that was waiting for a scan or a pairing code drops the keys made for it',
  })
  @ApiOkResponse({ type: SessionStateResponse, description: 'The session state afterwards (not connected; `logged_in` unchanged)' })
  @ApiInternalServerErrorResponse({ description: 'The worker holding the session did not answer; `error` says so (retry)' })
  stop(@Actor() actor: WorkspaceActor): Promise<SessionStateResponse> {
    return this.control.stop(actor.workspaceId);
  }

  @ConsoleOnly()
  @Post('restart')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stop, then connect again: a linked number reconnects on its keys without a QR code; one not linked shows a new QR code; no body',
  })
  @ApiOkResponse({ type: SessionStateResponse, description: 'As connect: the state once connected or a QR code is available (waits a few seconds at most)' })
  @ApiInternalServerErrorResponse({ description: 'As connect: the session could not be started, or its worker did not answer; `error` says why' })
  restart(@Actor() actor: WorkspaceActor): Promise<SessionStateResponse> {
    return this.control.restart(actor.workspaceId);
  }

  @Member()
  @Get('qr')
  @ApiOperation({ summary: 'The QR code to scan (poll every few seconds while `pending`)' })
  @ApiOkResponse({
    type: QrCodeResponse,
    description:
      'Without a code (not started, already linked, expired, a pairing code asked for instead, or stopped before a code was shown): `pending: false`, `image: ""` and ' +
      '`error`/`message` saying to call `POST /api/chat/connect` first, that the previous QR code expired, that a pairing code waits, or why the session stopped ' +
      "(e.g. `could not reach WhatsApp: …`, or WhatsApp's passkey check)",
  })
  qr(@Actor() actor: WorkspaceActor): Promise<QrCodeResponse> {
    return this.state.qr(actor.workspaceId);
  }

  @Member()
  @Get('status')
  @ApiOperation({ summary: 'The session state (flags and `state` by name, `since`) plus the history sync; poll until `logged_in` and `connected`' })
  @ApiOkResponse({ type: SessionStatusResponse })
  status(@Actor() actor: WorkspaceActor): Promise<SessionStatusResponse> {
    return this.statuses.status(actor);
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
