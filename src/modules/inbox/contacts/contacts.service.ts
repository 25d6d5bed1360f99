import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { queryText } from '../../../infra/http/query-text.js';
import type { CreateContactDto, UpdateContactDto } from '../dto/contact.dto.js';
import type { ContactResponse } from '../dto/inbox-responses.dto.js';
import { InboxEvents } from '../inbox-events.service.js';
import { toContactResponse } from '../inbox.mapper.js';
import { normalizePhone } from '../jid.js';
import { ContactRepository } from './contact.repository.js';

/** Contacts are listed 500 newest, not paginated. */
export const CONTACT_LIST_CAP = 500;
const PHONE_TAKEN = 'a contact with this phone number already exists';

@Injectable()
export class ContactsService {
  constructor(
    private readonly contacts: ContactRepository,
    private readonly events: InboxEvents,
  ) {}

  async list(workspaceId: string, q: unknown): Promise<ContactResponse[]> {
    const query = queryText(q, 'q', 100);
    return (await this.contacts.list(workspaceId, query || null, CONTACT_LIST_CAP)).map(toContactResponse);
  }

  async get(workspaceId: string, id: string): Promise<ContactResponse> {
    const contact = await this.contacts.find(workspaceId, id);
    if (!contact) throw ApiError.notFound('contact not found');
    return toContactResponse(contact);
  }

  async create(workspaceId: string, dto: CreateContactDto): Promise<ContactResponse> {
    const phone = normalizePhone(dto.phone);
    if (!phone) throw ApiError.badRequest('invalid phone number');
    const created = await this.contacts.insert(workspaceId, phone, dto.name?.trim() ?? '');
    if (created === 'conflict') throw ApiError.conflict(PHONE_TAKEN);
    await this.events.contactChanged(workspaceId, 'contact.created', created);
    return toContactResponse(created);
  }

  async update(workspaceId: string, id: string, dto: UpdateContactDto): Promise<ContactResponse> {
    let phone: string | undefined;
    if (dto.phone !== undefined) {
      phone = normalizePhone(dto.phone) ?? undefined;
      if (!phone) throw ApiError.badRequest('invalid phone number');
    }
    // `null` clears the name, like "" (docs/api.md, "Conventions"); absent leaves it.
    const name = dto.name === null ? '' : dto.name?.trim();
    const updated = await this.contacts.update(workspaceId, id, { phone, name });
    if (updated === 'conflict') throw ApiError.conflict(PHONE_TAKEN);
    if (!updated) throw ApiError.notFound('contact not found');
    await this.events.contactChanged(workspaceId, 'contact.updated', updated);
    return toContactResponse(updated);
  }

  /** Open Consoles learn that each of the contact's conversations lost its `contact_id`, then that it is gone. */
  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    const unlinked = await this.contacts.delete(workspaceId, id);
    if (!unlinked) throw ApiError.notFound('contact not found');
    for (const conversation of unlinked) await this.events.conversationUpdated(workspaceId, conversation);
    await this.events.contactDeleted(workspaceId, id);
    return { ok: true };
  }
}
