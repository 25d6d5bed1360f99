import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { IdPipe } from '../../inbox/dto/id.pipe.js';
import { CreateArticleDto, UpdateArticleDto } from './dto/knowledge.dto.js';
import { ArticleHitResponse, ArticleResponse } from './dto/knowledge.response.js';
import { KnowledgeService, QUERY_REQUIRED } from './knowledge.service.js';

const ArticleId = new IdPipe('invalid knowledge article id');
const NOT_FOUND = "`knowledge article not found`: unknown, deleted, or another workspace's";

@ApiTags('knowledge')
@Controller('api/knowledge')
export class KnowledgeController {
  constructor(private readonly knowledge: KnowledgeService) {}

  @Get()
  @Member()
  @ApiOperation({ summary: 'The 500 newest knowledge articles' })
  @ApiOkResponse({ type: [ArticleResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<ArticleResponse[]> {
    return this.knowledge.list(actor.workspaceId);
  }

  @Get('search')
  @Member()
  @ApiOperation({ summary: 'Full-text search: at most 10 articles, best first (empty when nothing matches)' })
  @ApiQuery({
    name: 'q',
    required: true,
    schema: { type: 'string', minLength: 1 },
    description: 'Words to find (all of them), "a phrase", `or` between alternatives, `-word` to exclude; the first 500 characters count',
  })
  @ApiOkResponse({ type: [ArticleHitResponse] })
  @ApiErrors({ 400: QUERY_REQUIRED })
  search(@Actor() actor: WorkspaceActor, @Query('q') q: unknown): Promise<ArticleHitResponse[]> {
    return this.knowledge.search(actor.workspaceId, q);
  }

  @Post()
  @ConsoleOnly()
  @ApiOperation({ summary: 'Create a knowledge article' })
  @ApiCreatedResponse({ type: ArticleResponse })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateArticleDto): Promise<ArticleResponse> {
    return this.knowledge.create(actor.workspaceId, dto);
  }

  @Patch(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: "Change an article's title or body" })
  @ApiOkResponse({ type: ArticleResponse })
  @ApiErrors({ 400: 'invalid knowledge article id', 404: NOT_FOUND })
  update(@Actor() actor: WorkspaceActor, @Param('id', ArticleId) id: string, @Body() dto: UpdateArticleDto): Promise<ArticleResponse> {
    return this.knowledge.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Delete an article' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid knowledge article id', 404: NOT_FOUND })
  delete(@Actor() actor: WorkspaceActor, @Param('id', ArticleId) id: string): Promise<{ ok: true }> {
    return this.knowledge.delete(actor.workspaceId, id);
  }
}
