import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MESSAGE_TYPES, type MessageType } from '../entities/message.entity.js';

export class MediaDto {
  @ApiPropertyOptional({ description: 'http(s) address the channel fetches the file from' })
  @IsOptional()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ description: 'the file itself, base64 (instead of url)' })
  @IsOptional()
  @IsString()
  data_base64?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  mime_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  file_name?: string;
}

/** `{body}` for text, or `{type, media, caption}` for an image or a document. */
export class SendMessageDto {
  @ApiPropertyOptional({ enum: MESSAGE_TYPES, default: 'text' })
  @IsOptional()
  @IsIn(MESSAGE_TYPES, { message: 'type must be text, image or document' })
  type?: MessageType;

  @ApiPropertyOptional({ description: 'text of a text message' })
  @IsOptional()
  @IsString()
  body?: string;

  @ApiPropertyOptional({ type: MediaDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MediaDto)
  media?: MediaDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  caption?: string;
}
