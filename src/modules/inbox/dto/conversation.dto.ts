import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';

export class StartConversationDto {
  @ApiProperty({ description: 'digits, E.164 with or without +' })
  @IsOptional()
  @IsString()
  phone?: string;

  @ApiProperty()
  @IsOptional()
  @IsString()
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
