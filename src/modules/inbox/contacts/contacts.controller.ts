import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { CreateContactDto, UpdateContactDto } from '../dto/contact.dto.js';
import { ContactId } from '../dto/id.pipe.js';
import type { ContactResponse } from '../inbox.mapper.js';
import { ContactsService } from './contacts.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @ApiQuery({ name: 'q', required: false, description: 'matches name or phone' })
  list(@Actor() actor: WorkspaceActor, @Query('q') q: unknown): Promise<ContactResponse[]> {
    return this.contacts.list(actor.workspaceId, q);
  }

  @Post()
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateContactDto): Promise<ContactResponse> {
    return this.contacts.create(actor.workspaceId, dto);
  }

  @Get(':id')
  get(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string): Promise<ContactResponse> {
    return this.contacts.get(actor.workspaceId, id);
  }

  @Patch(':id')
  update(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string, @Body() dto: UpdateContactDto): Promise<ContactResponse> {
    return this.contacts.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  delete(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string): Promise<{ ok: true }> {
    return this.contacts.delete(actor.workspaceId, id);
  }
}
