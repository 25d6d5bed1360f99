import { Injectable } from '@nestjs/common';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { ContactMergeRepository } from './contact-merge.repository.js';
import type { ChatIdentity } from './inbound-message.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/**
 * One person, two contacts: WhatsApp shows some chats by phone number and others by LID, so a
 * person can first appear as a phone-only contact (A) and, in a LID-addressed chat, as a LID-only
 * contact (B). When a message names both ids, ingest merges them before storing it.
 *
 * A is kept: the phone number is what people type, search and create contacts by (POST
 * /api/contacts), so integrations most likely hold A's id, and ingest already prefers the phone
 * when the ids disagree. A gets B's LID, and B's name when A has none (a name set on A, by a
 * person or from an earlier message, is never replaced); B's conversations move to A; B is
 * deleted. Contacts whose other id disagrees (A with another LID, B with another phone) are not
 * merged: that is two people or stale data, and the phone wins as before.
 */
@Injectable()
export class ContactMergeService {
  constructor(private readonly contacts: ContactMergeRepository) {}

  /**
   * Runs inside the ingest transaction, holding both contacts locked until it commits. Returns
   * the conversations that moved to the kept contact ([] when there was nothing to merge, e.g. a
   * concurrent ingest merged them first).
   */
  async mergeSplit(workspaceId: string, contact: ChatIdentity['contact'], tx: SqlExecutor): Promise<ConversationEntity[]> {
    if (!contact?.phone || !contact.lid) return [];
    const holders = await this.contacts.lockHolders(workspaceId, contact.phone, contact.lid, tx);
    const keep = holders.find((c) => c.phone === contact.phone);
    const drop = holders.find((c) => c.lid === contact.lid);
    if (!keep || !drop || keep.id === drop.id || keep.lid !== null || drop.phone !== null) return [];
    return this.contacts.merge(workspaceId, keep.id, drop.id, tx);
  }
}
