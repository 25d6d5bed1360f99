import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateContactDto {
  @ApiProperty({ description: 'digits, E.164 with or without +' })
  @IsOptional()
  @IsString()
  phone?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

/** PATCH: absent fields stay as they are (docs/api.md, "Conventions"). */
export class UpdateContactDto {
  @ApiPropertyOptional({ type: String, description: 'A new phone number; it cannot be removed (`null` is 400 `invalid phone number`)' })
  @IsOptional()
  @IsString()
  phone?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: '`null` or `""` clears the name' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;
}
