import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ConversationId, IdPipe } from '../dto/id.pipe.js';
import { CreateNoteDto, MENTIONS_RULE, MentionResponse, NOTE_BODY_REQUIRED, NOTE_BODY_TOO_LONG, NoteResponse } from './dto/note.dto.js';
import { MENTIONS_NEED_USER, NOTE_DELETE_FORBIDDEN, NOTE_NOT_FOUND, NotesService } from './notes.service.js';

export const NoteId = new IdPipe('invalid note id');
const CONVERSATION_NOT_FOUND = "`conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else";

/** Private notes: members and write keys on the conversations they see (read keys: GET only). */
@ApiTags('notes')
@Member()
@Controller('api')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Get('notes/mentions')
  @ApiOperation({ summary: 'The 100 newest notes that mention the signed-in member, in conversations they see' })
  @ApiOkResponse({ type: [MentionResponse] })
  @ApiErrors({ 400: `\`${MENTIONS_NEED_USER}\`: called with an API key` })
  mentions(@Actor() actor: WorkspaceActor): Promise<MentionResponse[]> {
    return this.notes.mentions(actor);
  }

  @Get('conversations/:id/notes')
  @ApiOperation({ summary: "The conversation's newest 500 private notes, oldest first" })
  @ApiOkResponse({ type: [NoteResponse] })
  @ApiErrors({ 400: 'invalid conversation id', 404: CONVERSATION_NOT_FOUND })
  list(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<NoteResponse[]> {
    return this.notes.list(actor, id);
  }

  @Post('conversations/:id/notes')
  @ApiOperation({
    summary: 'Add a private note: seen by the team only, never sent to the chat nor to a webhook',
    description: '`body` is trimmed; `mentions` name members whose Mentions view lists the note. Live event `note.created`.',
  })
  @ApiCreatedResponse({ type: NoteResponse })
  @ApiErrors({ 400: ['invalid conversation id', NOTE_BODY_REQUIRED, NOTE_BODY_TOO_LONG, MENTIONS_RULE], 404: CONVERSATION_NOT_FOUND })
  create(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: CreateNoteDto): Promise<NoteResponse> {
    return this.notes.create(actor, id, dto);
  }

  @Delete('conversations/:id/notes/:noteId')
  @ApiOperation({ summary: 'Delete a note: its author, an owner or admin; an API key the notes written with a key' })
  @ApiParam({ name: 'noteId', schema: { type: 'string', format: 'uuid' }, description: 'the note (`GET /api/conversations/{id}/notes`)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({
    400: ['invalid conversation id', 'invalid note id'],
    403: NOTE_DELETE_FORBIDDEN,
    404: [CONVERSATION_NOT_FOUND, `\`${NOTE_NOT_FOUND}\`: unknown, or of another conversation`],
  })
  delete(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Param('noteId', NoteId) noteId: string): Promise<{ ok: true }> {
    return this.notes.delete(actor, id, noteId);
  }
}
