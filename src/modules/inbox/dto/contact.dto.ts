import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PhoneNumber } from './phone-number.decorator.js';

export class CreateContactDto {
  @PhoneNumber()
  phone?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: '`null` or `""` (or leaving it out): no name' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;
}

/** PATCH: absent fields stay as they are (docs/api.md, "Conventions"). */
export class UpdateContactDto {
  @PhoneNumber({ required: false, description: 'A new phone number; it cannot be removed' })
  phone?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: '`null` or `""` clears the name' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;
}
