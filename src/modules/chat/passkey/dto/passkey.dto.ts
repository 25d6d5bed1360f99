import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

const B64URL = 'unpadded base64url';

export class PasskeyAssertionResponseDto {
  @ApiProperty({ description: `\`clientDataJSON\`, ${B64URL}` })
  @IsString({ message: 'response.clientDataJSON must be a string' })
  @MaxLength(8192)
  clientDataJSON: string;

  @ApiProperty({ description: `\`authenticatorData\`, ${B64URL}` })
  @IsString({ message: 'response.authenticatorData must be a string' })
  @MaxLength(8192)
  authenticatorData: string;

  @ApiProperty({ description: `The signature, ${B64URL}` })
  @IsString({ message: 'response.signature must be a string' })
  @MaxLength(2048)
  signature: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: `The user handle, ${B64URL}; null or absent when the authenticator gave none` })
  @IsOptional()
  @IsString({ message: 'response.userHandle must be a string or null' })
  @MaxLength(512)
  userHandle?: string | null;
}

/**
 * `POST /api/chat/passkey/{workspace_id}/assertion`: `PublicKeyCredential.toJSON()` of the
 * assertion. Other members browsers add (`authenticatorAttachment`, `clientExtensionResults`) are
 * accepted and not sent on.
 */
export class PasskeyAssertionDto {
  @ApiProperty({ description: `The credential id, ${B64URL} (the same as \`rawId\`)` })
  @IsString({ message: 'id must be a string' })
  @MaxLength(1024)
  id: string;

  @ApiProperty({ description: `The credential id, ${B64URL}` })
  @IsString({ message: 'rawId must be a string' })
  @MaxLength(1024)
  rawId: string;

  @ApiProperty({ enum: ['public-key'] })
  @IsIn(['public-key'], { message: 'type must be public-key' })
  type: 'public-key';

  @ApiProperty({ type: PasskeyAssertionResponseDto })
  @IsDefined({ message: 'response is required' })
  @IsObject({ message: 'response must be an object' })
  @ValidateNested()
  @Type(() => PasskeyAssertionResponseDto)
  response: PasskeyAssertionResponseDto;
}

/** `POST /api/chat/passkey/confirm`. */
export class PasskeyConfirmDto {
  @ApiPropertyOptional({
    example: 'ABCD-EFGH',
    description:
      'The code the phone shows. Given, it must equal the code of the status (case, spaces and the dash do not matter); a different one ends the ' +
      'ceremony (400) and nothing is linked. Absent: the person compared the codes and confirms',
  })
  @IsOptional()
  @IsString({ message: 'code must be a string' })
  @MaxLength(32)
  code?: string;
}

export class PasskeyLinkResponse {
  @ApiProperty({
    example: 'https://web.whatsapp.com/#svc-passkey=eyJ2IjoxLCJhcGkiOiJodHRwczovL2luYm94LmV4YW1wbGUuY29tIn0',
    description: 'Open in a desktop browser with the passkey extension: WhatsApp Web, with the one-time link in the fragment (never sent to a server)',
  })
  url: string;

  @ApiProperty({ format: 'date-time', description: 'When the link stops working (CHAT_PASSKEY_LINK_TTL_MS, at most the end of the ceremony)' })
  expires_at: string;
}

export class PasskeyChallengeResponse {
  @ApiProperty({ format: 'uuid' })
  workspace_id: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { challenge: 'q1w2e3…', timeout: 600000, rpId: 'whatsapp.com', allowCredentials: [], userVerification: 'required', extensions: { uvm: true } },
    description: "WhatsApp's `PublicKeyCredentialRequestOptionsJSON`, for `PublicKeyCredential.parseRequestOptionsFromJSON`",
  })
  options: Record<string, unknown>;

  @ApiProperty({ format: 'date-time', description: 'When the link (or the ceremony) stops working' })
  expires_at: string;
}

export class PasskeyStepResponse {
  @ApiProperty({
    enum: ['passkey_assertion', 'connecting'],
    description: '`passkey_assertion` after an assertion (the phone answers next), `connecting` after a confirmation',
  })
  state: string;
}
