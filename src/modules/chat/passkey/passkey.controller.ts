import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Public } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { RateLimit } from '../../auth/rate-limit/rate-limit.decorator.js';
import { PASSKEY_CODE_MISMATCH_ERROR } from '../session/session-state.js';
import { NO_CEREMONY } from '../session/scan-session-passkey.js';
import { PasskeyAssertionDto, PasskeyChallengeResponse, PasskeyConfirmDto, PasskeyLinkResponse, PasskeyStepResponse } from './dto/passkey.dto.js';
import {
  ASSERTION_SENT,
  CEREMONY_OFF,
  INVALID_WORKSPACE,
  LINK_EXPIRED,
  LINK_INVALID,
  LINK_MISSING,
  LINK_OTHER_WORKSPACE,
  LINK_USED,
  PasskeyCeremonyService,
} from './passkey-ceremony.service.js';

const TOKEN_HEADER = {
  name: 'X-Passkey-Token',
  required: true,
  description: 'The one-time token of the link (from the fragment of the URL `POST /api/chat/passkey/link` gave)',
};
const LINK_ERRORS = { 400: INVALID_WORKSPACE, 401: [LINK_MISSING, LINK_INVALID, LINK_EXPIRED, LINK_USED], 403: LINK_OTHER_WORKSPACE, 409: NO_CEREMONY };

/**
 * WhatsApp's passkey check, with CHAT_PASSKEY_CEREMONY on (docs/passkey.md): the Console asks for
 * a one-time link and confirms the code; the browser extension on web.whatsapp.com fetches the
 * challenge and posts the assertion with the link's token (no cookie, no key).
 */
@ApiTags('chat')
@Controller('api/chat/passkey')
export class PasskeyController {
  constructor(private readonly ceremony: PasskeyCeremonyService) {}

  @ConsoleOnly()
  @Post('link')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A one-time link that opens WhatsApp Web for the passkey extension (while the status says passkey_required or passkey_assertion); no body',
    description: 'Each call makes a new link and invalidates the previous one',
  })
  @ApiOkResponse({ type: PasskeyLinkResponse })
  @ApiErrors({ 409: [NO_CEREMONY, ASSERTION_SENT, CEREMONY_OFF] })
  link(@Actor() actor: WorkspaceActor): Promise<PasskeyLinkResponse> {
    return this.ceremony.link(actor.workspaceId);
  }

  @ConsoleOnly()
  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm the code the phone shows (status state passkey_confirmation): WhatsApp then pairs the device',
    description: 'With `code`, it must equal the status code; a different one ends the ceremony without a link',
  })
  @ApiOkResponse({ type: PasskeyStepResponse })
  @ApiErrors({ 400: PASSKEY_CODE_MISMATCH_ERROR, 409: NO_CEREMONY })
  confirm(@Actor() actor: WorkspaceActor, @Body() dto: PasskeyConfirmDto): Promise<PasskeyStepResponse> {
    return this.ceremony.confirm(actor.workspaceId, dto.code);
  }

  @Public()
  @RateLimit('passkey')
  @Get(':workspace_id/challenge')
  @ApiOperation({ summary: "For the passkey extension: WhatsApp's WebAuthn request options (the status moves to passkey_assertion)" })
  @ApiHeader(TOKEN_HEADER)
  @ApiOkResponse({ type: PasskeyChallengeResponse })
  @ApiErrors(LINK_ERRORS)
  challenge(@Param('workspace_id') workspaceId: string, @Headers('x-passkey-token') token: string | undefined): Promise<PasskeyChallengeResponse> {
    return this.ceremony.challenge(workspaceId, token);
  }

  @Public()
  @RateLimit('passkey')
  @Post(':workspace_id/assertion')
  @HttpCode(200)
  @ApiOperation({
    summary: 'For the passkey extension: the WebAuthn assertion (PublicKeyCredential.toJSON()), checked and sent on to WhatsApp; uses the link up',
    description:
      "Checked before it goes: unpadded base64url fields, `id` equal to `rawId`, client data of type `webauthn.get` with WhatsApp's challenge and the origin " +
      '`https://web.whatsapp.com` (400, the link stays usable). WhatsApp refusing it is 400 too, and ends the ceremony',
  })
  @ApiHeader(TOKEN_HEADER)
  @ApiOkResponse({ type: PasskeyStepResponse })
  @ApiErrors({ ...LINK_ERRORS, 400: [INVALID_WORKSPACE, 'assertion challenge does not match'] })
  assertion(
    @Param('workspace_id') workspaceId: string,
    @Headers('x-passkey-token') token: string | undefined,
    @Body() dto: PasskeyAssertionDto,
  ): Promise<PasskeyStepResponse> {
    return this.ceremony.assertion(workspaceId, token, dto);
  }
}
