import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { INVALID_CURSOR } from './search-cursor.js';
import { SearchResponse } from './search.response.js';
import {
  BAD_LIMIT,
  BAD_TYPE,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY_LENGTH,
  Q_REQUIRED,
  Q_TOO_LONG,
  Q_TWICE,
  SEARCH_TYPES,
  SearchService,
} from './search.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @ApiOperation({
    summary: 'Search messages, contacts and private notes',
    description:
      'Words are matched whole and case-insensitively (no stemming: chats mix languages), every word must occur, and the last one also matches ' +
      'as the start of a word when it has 3 or more characters (search as you type). Messages match by text, caption ' +
      'or file name (deleted ones never), notes by body, contacts by name or, when `q` is a phone number (digits, spaces, `+-().`, 3 digits ' +
      'or more), by those digits anywhere in the number. Results are ranked (ts_rank_cd), newer first among equals, and paged with ' +
      '`next_cursor`. Agents find only what they see: messages and notes of unassigned conversations and their own; every member finds every contact.',
  })
  @ApiQuery({
    name: 'q',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, pattern: '\\S' },
    description: 'The words to find',
  })
  @ApiQuery({ name: 'type', required: false, schema: { type: 'string', enum: [...SEARCH_TYPES], default: 'all' }, description: 'What to search' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    description: 'Results per page',
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,240}$' },
    description: 'The `next_cursor` of the previous page (opaque), with the same `q` and `type`',
  })
  @ApiOkResponse({ type: SearchResponse })
  @ApiErrors({
    400: [
      `\`${Q_REQUIRED}\`: absent, empty or only spaces`,
      `\`${Q_TOO_LONG}\`: after trimming`,
      `\`${Q_TWICE}\`: q repeated`,
      BAD_TYPE,
      BAD_LIMIT,
      `\`${INVALID_CURSOR}\`: not a next_cursor this route gave`,
    ],
  })
  find(
    @Actor() actor: WorkspaceActor,
    @Query('q') q: unknown,
    @Query('type') type: unknown,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<SearchResponse> {
    return this.search.find(actor, q, type, limit, cursor);
  }
}
