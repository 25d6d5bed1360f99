import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Wire shapes of docs/contract.md#resources and docs/chat.md#endpoints.

export class SessionStateResponse {
  @ApiProperty({ description: 'The linked session is connected to the channel' })
  connected: boolean;

  @ApiProperty({
    description:
      'The number is linked (paired) to this workspace: from the moment the phone scanned the code. Until the link is finished ' +
      '(the channel restarts the connection and logs in, usually a few seconds) `connected` is still false and no code is pending',
  })
  logged_in: boolean;

  @ApiProperty({ description: 'A QR code is waiting to be scanned' })
  qr_pending: boolean;

  @ApiPropertyOptional({ example: '4915123456789:12@s.whatsapp.net', description: 'Channel id of the linked number, once linked' })
  jid?: string;
}

export class SyncStateResponse {
  @ApiProperty({ enum: ['idle', 'running', 'done'], description: 'History sync after linking' })
  state: string;

  @ApiProperty({ minimum: 0, maximum: 100 })
  progress: number;
}

export class ScanEndpointResponse {
  @ApiProperty({
    example: 'wss://web.whatsapp.com/ws/chat',
    description: "The WhatsApp WebSocket URL the sessions connect to (WA_WEBSOCKET_URL, or WhatsApp's own), without user, password, query or fragment",
  })
  url: string;

  @ApiProperty({ description: "`url` is WhatsApp's own endpoint (wss://web.whatsapp.com/ws/chat); false: a simulator or another endpoint" })
  default: boolean;

  @ApiProperty({ description: 'The service does not run with NODE_ENV=production' })
  development: boolean;
}

export class SessionStatusResponse extends SessionStateResponse {
  @ApiPropertyOptional({
    example: 'logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again',
    description:
      'Why the session stopped on its own: logged out from the phone (the device was removed in Linked devices; `logged_in` is then false), ' +
      'banned, replaced by another connection, failing again and again. Absent once it connects, and after a disconnect here',
  })
  error?: string;

  @ApiProperty({ type: SyncStateResponse })
  sync: SyncStateResponse;

  @ApiPropertyOptional({
    type: ScanEndpointResponse,
    description: 'Where the sessions of this service connect (the same for every workspace). Only for signed-in members (the Console); absent for API keys',
  })
  endpoint?: ScanEndpointResponse;
}

export class QrCodeResponse {
  @ApiPropertyOptional({ description: 'The raw QR payload; absent when there is no code' })
  code?: string;

  @ApiProperty({ example: 'data:image/png;base64,iVBORw0KGgo…', description: 'The code as a 256 px PNG data URL; empty when there is no code' })
  image: string;

  @ApiProperty({ description: 'true while a code waits to be scanned (it rotates: poll every few seconds)' })
  pending: boolean;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T07:01:00.000Z',
    description:
      'Only with a code: when it stops being valid, i.e. when the channel shows the next one (about 60 s after the first code of a connect, ' +
      '20 s after each rotation) or, after the last, the codes expire. Re-read the QR endpoint then',
  })
  expires_at?: string;

  @ApiPropertyOptional({
    example: 'no QR code is waiting to be scanned: call POST /api/chat/connect first',
    description:
      'Only when there is no code: call connect first, the previous code expired, or (between the scan and `connected`) ' +
      'the code was scanned and the number is being linked',
  })
  error?: string;

  @ApiPropertyOptional({ description: 'Only when there is no code: the same text as `error`' })
  message?: string;
}
