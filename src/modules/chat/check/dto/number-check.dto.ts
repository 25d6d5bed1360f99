import { ApiProperty } from '@nestjs/swagger';

/** `GET /api/chat/check`: whether a phone number is on WhatsApp. */
export class NumberCheckResponse {
  @ApiProperty({ example: '4915123456789', description: 'The number checked, digits only (E.164 without `+`)' })
  phone: string;

  @ApiProperty({ description: 'Whether the number has a WhatsApp account' })
  exists: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '4915123456789@s.whatsapp.net',
    description: "The number's chat id as WhatsApp answered it; null when it is not on WhatsApp",
  })
  jid: string | null;

  @ApiProperty({ description: 'Answered from an earlier check of this workspace (not asked of WhatsApp now; does not count toward the limit)' })
  cached: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T07:00:00.000Z', description: 'When WhatsApp gave this answer (RFC 3339)' })
  checked_at: string;
}
