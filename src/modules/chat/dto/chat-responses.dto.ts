import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Wire shapes of the contract (section 2) and api.md ("Chat — scan channel").

export class SessionStateResponse {
  @ApiProperty({ description: 'The linked session is connected to the channel' })
  connected: boolean;

  @ApiProperty({ description: 'The number is linked (paired) to this workspace' })
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

export class SessionStatusResponse extends SessionStateResponse {
  @ApiPropertyOptional({
    description: 'Why the session stopped on its own (banned, replaced by another connection, failing again and again); absent once it connects',
  })
  error?: string;

  @ApiProperty({ type: SyncStateResponse })
  sync: SyncStateResponse;
}

export class QrCodeResponse {
  @ApiPropertyOptional({ description: 'The raw QR payload; absent when there is no code' })
  code?: string;

  @ApiProperty({ example: 'data:image/png;base64,iVBORw0KGgo…', description: 'The code as a 256 px PNG data URL; empty when there is no code' })
  image: string;

  @ApiProperty({ description: 'true while a code waits to be scanned (it rotates: poll every few seconds)' })
  pending: boolean;

  @ApiPropertyOptional({
    example: 'no QR code is waiting to be scanned: call POST /api/chat/connect first',
    description: 'Only when there is no code: call connect first, or the previous code expired',
  })
  error?: string;

  @ApiPropertyOptional({ description: 'Only when there is no code: the same text as `error`' })
  message?: string;
}
