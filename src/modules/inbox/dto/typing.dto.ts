import { ApiPropertyOptional } from '@nestjs/swagger';
import { TYPING_STATES } from '../../channels/channel-gateway.port.js';

/** POST /api/conversations/:id/typing (checked by the service: the body is optional). */
export class TypingDto {
  @ApiPropertyOptional({ enum: TYPING_STATES, default: 'composing', description: '`composing` (typing…), `recording` (recording audio…), `paused` (stop)' })
  state?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 30000, description: 'Stop by itself after this many ms' })
  duration_ms?: number;
}
