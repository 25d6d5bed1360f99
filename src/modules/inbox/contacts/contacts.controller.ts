import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { CreateContactDto, UpdateContactDto } from '../dto/contact.dto.js';
import { ContactId } from '../dto/id.pipe.js';
import { ContactResponse } from '../dto/inbox-responses.dto.js';
import { ContactsService } from './contacts.service.js';

const DUPLICATE = 'a contact with this phone number already exists';
const NOT_FOUND = "`contact not found`: unknown, deleted, or another workspace's";
const BAD_ID = 'invalid contact id';

@ApiTags('inbox')
@Member()
@Controller('api/contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @ApiOperation({ summary: 'The 500 newest contacts, optionally searched' })
  @ApiQuery({
    name: 'q',
    required: false,
    schema: { type: 'string' },
    description: 'Search: a case-insensitive part of the name, or digits of the phone number (the first 100 characters count); given twice it is 400',
  })
  @ApiOkResponse({ type: [ContactResponse] })
  list(@Actor() actor: WorkspaceActor, @Query('q') q: unknown): Promise<ContactResponse[]> {
    return this.contacts.list(actor.workspaceId, q);
  }

  @Post()
  @ApiOperation({ summary: 'Create a contact' })
  @ApiCreatedResponse({ type: ContactResponse })
  @ApiErrors({ 400: 'invalid phone number', 409: DUPLICATE })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateContactDto): Promise<ContactResponse> {
    return this.contacts.create(actor.workspaceId, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One contact' })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors({ 400: BAD_ID, 404: NOT_FOUND })
  get(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string): Promise<ContactResponse> {
    return this.contacts.get(actor.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change a contact's phone or name" })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors({ 400: [BAD_ID, 'invalid phone number'], 404: NOT_FOUND, 409: DUPLICATE })
  update(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string, @Body() dto: UpdateContactDto): Promise<ContactResponse> {
    return this.contacts.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact (its conversations stay)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: BAD_ID, 404: NOT_FOUND })
  delete(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string): Promise<{ ok: true }> {
    return this.contacts.delete(actor.workspaceId, id);
  }
}
