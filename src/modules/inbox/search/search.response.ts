import { ApiProperty } from '@nestjs/swagger';

export const SEARCH_RESULT_TYPES = ['message', 'contact', 'note'] as const;
export type SearchResultType = (typeof SEARCH_RESULT_TYPES)[number];

export class SearchResultResponse {
  @ApiProperty({
    enum: SEARCH_RESULT_TYPES,
    description: 'What was found: a message (its text, caption or file name), a contact (name or phone number) or a private note',
  })
  type: SearchResultType;

  @ApiProperty({ format: 'uuid', description: 'The message, contact or note' })
  id: string;

  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: "The conversation to open: the message's or note's; for a contact its latest conversation the caller sees, or null",
  })
  conversation_id: string | null;

  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: "The contact: the conversation's (null for groups and unlinked chats), or the contact found",
  })
  contact_id: string | null;

  @ApiProperty({ description: "The chat's name (else its phone number); for a contact its name (else its number); '' when unknown" })
  chat_name: string;

  @ApiProperty({
    description:
      'Plain text around the first match (at most 160 characters of the text, `…` where it was cut, whitespace as spaces): ' +
      "a message's text or caption (its file name when only that matched), a note's body, a contact's name (its number when that matched)",
  })
  snippet: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 },
    example: [[8, 14]],
    description: 'The matched words in `snippet` as [start, end) offsets in UTF-16 code units (JavaScript string indexes), in order, not overlapping',
  })
  highlights: [number, number][];

  @ApiProperty({
    format: 'date-time',
    description: "The message's time, the note's creation, a contact's latest conversation's last message (else its creation)",
  })
  timestamp: string;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'ts_rank_cd normalised to 0..1 (a phone number match is 1); higher first, then newer first' })
  rank: number;
}

export class SearchResponse {
  @ApiProperty({ type: [SearchResultResponse], description: 'Best first: by rank, then newest first' })
  results: SearchResultResponse[];

  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` (with the same `q` and `type`) for the next page; null on the last page' })
  next_cursor: string | null;
}
