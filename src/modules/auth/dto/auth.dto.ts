import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

const normaliseEmail = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

// scrypt hashes whatever it is given: cap the length so a megabyte "password" costs nothing extra.
const PASSWORD_MAX = 256;

class EmailField {
  @ApiProperty({ example: 'ada@example.com', description: 'Compared and stored lower-cased' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;
}

export class RegisterDto extends EmailField {
  @ApiProperty({ minLength: 8, maxLength: PASSWORD_MAX, example: 'correct horse battery staple' })
  @IsString({ message: 'password must be a string' })
  @MinLength(8, { message: 'password must be at least 8 characters' })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  password: string;

  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name is required' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name: string;
}

export class LoginDto extends EmailField {
  @ApiProperty()
  @IsString({ message: 'password must be a string' })
  @MinLength(1, { message: 'password is required' })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  password: string;
}

/** forgot-password and resend-verification. */
export class EmailDto extends EmailField {}

export class TokenDto {
  @ApiProperty({ description: 'The token from the emailed link' })
  @IsString({ message: 'token must be a string' })
  @MinLength(1, { message: 'token is required' })
  @MaxLength(200, { message: 'token must be at most 200 characters' })
  token: string;
}

export class ResetPasswordDto extends TokenDto {
  @ApiProperty({ minLength: 8, maxLength: PASSWORD_MAX })
  @IsString({ message: 'password must be a string' })
  @MinLength(8, { message: 'password must be at least 8 characters' })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  password: string;
}

export class GoogleConfirmDto {
  @ApiProperty({ example: true })
  @Equals(true, { message: 'accept_terms must be true' })
  accept_terms: boolean;
}
