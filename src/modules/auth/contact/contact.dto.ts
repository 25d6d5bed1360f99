import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export class ContactDto {
  @ApiProperty({ maxLength: 100 })
  @Transform(trim)
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name is required' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name: string;

  @ApiProperty({ example: 'visitor@example.com' })
  @Transform(trim)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;

  @ApiProperty({ maxLength: 5000 })
  @Transform(trim)
  @IsString({ message: 'message must be a string' })
  @MinLength(1, { message: 'message is required' })
  @MaxLength(5000, { message: 'message must be at most 5000 characters' })
  message: string;
}
