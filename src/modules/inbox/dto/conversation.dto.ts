import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';
import { MAX_TEXT } from './message.dto.js';

export class StartConversationDto {
  @ApiProperty({ description: 'digits, E.164 with or without +' })
  @IsOptional()
  @IsString()
  phone?: string;

  @ApiProperty({ maxLength: MAX_TEXT, description: 'the first message, at most 65,536 characters' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT)
  body?: string;
}

export class AssignConversationDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: "a member's user id, or null to unassign" })
  @IsOptional()
  @IsString()
  user_id?: string | null;
}

export class UpdateConversationDto {
  @ApiProperty({ enum: CONVERSATION_STATUSES })
  @IsIn(CONVERSATION_STATUSES, { message: 'status must be open or closed' })
  status: ConversationStatus;
}
