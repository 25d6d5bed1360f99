import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, IsArray, Matches } from 'class-validator';
import { UUID_SHAPE } from '../../dto/uuid-shape.js';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';

export const NOTE_BODY_MAX = 10_000;
export const NOTE_MENTIONS_MAX = 50;
export const NOTE_BODY_REQUIRED = 'note body is required';
export const NOTE_BODY_TOO_LONG = `note body is at most ${NOTE_BODY_MAX} characters`;
export const MENTIONS_RULE = 'mentions must be user ids of members of this workspace';

/** `POST /api/conversations/:id/notes`. */
export class CreateNoteDto {
  // Checked by the service, whose texts name the note (`note body is required`), which the
  // validation pipe would prefix with the field's name.
  @ApiProperty({
    type: String,
    example: 'Customer called, promised a refund by Friday. @Ana can you check?',
    minLength: 1,
    maxLength: NOTE_BODY_MAX,
    pattern: '\\S',
  })
  @Allow()
  body: unknown;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: NOTE_MENTIONS_MAX,
    description: 'user ids of the members the note mentions (their Mentions view lists it)',
  })
  @OptionalNotNull()
  @IsArray({ message: MENTIONS_RULE })
  @ArrayMaxSize(NOTE_MENTIONS_MAX, { message: MENTIONS_RULE })
  @Matches(UUID_SHAPE, { each: true, message: MENTIONS_RULE })
  mentions?: string[];
}

export class NoteResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  conversation_id: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'the member who wrote it; null when written with an API key (or the account is gone)',
  })
  author_id: string | null;

  @ApiProperty({ example: 'Ana Lima', description: "the author's name; `API` when written with an API key" })
  author_name: string;

  @ApiProperty()
  body: string;

  @ApiProperty({ type: [String], format: 'uuid' })
  mentions: string[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** A note of the Mentions view: where it was written, too. */
export class MentionResponse extends NoteResponse {
  @ApiProperty({ example: 'Maria Souza', description: "the conversation's chat name" })
  chat_name: string;
}
