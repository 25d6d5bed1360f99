import { Injectable } from '@nestjs/common';
import type { ContactEntity } from '../entities/contact.entity.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { conversationColumns } from '../inbox-columns.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

export type ContactIds = Pick<ContactEntity, 'id' | 'phone' | 'lid' | 'name'>;

/** SQL of merging two contacts of one person; runs on the caller's transaction. */
@Injectable()
export class ContactMergeRepository {
  /**
   * The contacts holding `phone` or `lid`, locked until the transaction ends. Locked in id order,
   * so two transactions merging the same pair queue up instead of deadlocking; the second then
   * sees the merged contact.
   */
  lockHolders(workspaceId: string, phone: string, lid: string, tx: SqlExecutor): Promise<ContactIds[]> {
    return tx.query<ContactIds>(
      `SELECT id, phone, lid, name FROM contacts
        WHERE workspace_id = $1 AND (phone = $2 OR lid = $3)
        ORDER BY id FOR UPDATE`,
      [workspaceId, phone, lid],
    );
  }

  /**
   * Moves the conversations of `dropId` to `keepId`, deletes `dropId` and gives `keepId` its LID,
   * and its name when `keepId` has none. The delete runs before the LID moves (the statement
   * reads the deleted row), so the partial unique index on (workspace_id, lid) never sees two
   * holders. Returns the conversations that changed contact.
   */
  async merge(workspaceId: string, keepId: string, dropId: string, tx: SqlExecutor): Promise<ConversationEntity[]> {
    const moved = await tx.query<ConversationEntity>(
      `UPDATE conversations c SET contact_id = $2, updated_at = now()
        WHERE c.workspace_id = $1 AND c.contact_id = $3
       RETURNING ${conversationColumns('c')}`,
      [workspaceId, keepId, dropId],
    );
    await tx.query(
      `WITH dropped AS (DELETE FROM contacts WHERE workspace_id = $1 AND id = $3 RETURNING lid, name)
       UPDATE contacts c SET lid = d.lid, name = CASE WHEN c.name = '' THEN d.name ELSE c.name END, updated_at = now()
         FROM dropped d WHERE c.workspace_id = $1 AND c.id = $2`,
      [workspaceId, keepId, dropId],
    );
    return moved;
  }

  /**
   * Gives the person's contacts the id they lack (the phone's contact its LID, the LID's contact
   * its phone) unless another contact holds it, and a LID-addressed chat its phone number. Runs
   * after the split-contact merge, in its transaction.
   */
  async linkLid(workspaceId: string, phone: string, lid: string, tx: SqlExecutor): Promise<void> {
    await tx.query(
      `UPDATE contacts c SET lid = $3, updated_at = now()
        WHERE c.workspace_id = $1 AND c.phone = $2 AND c.lid IS NULL
          AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.lid = $3)`,
      [workspaceId, phone, lid],
    );
    await tx.query(
      `UPDATE contacts c SET phone = $2, updated_at = now()
        WHERE c.workspace_id = $1 AND c.lid = $3 AND c.phone IS NULL
          AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.phone = $2)`,
      [workspaceId, phone, lid],
    );
    await tx.query(
      `UPDATE conversations c SET chat_phone = $2, updated_at = now()
        WHERE c.workspace_id = $1 AND c.channel = 'scan' AND c.chat_jid = $3 || '@lid' AND c.chat_phone = ''`,
      [workspaceId, phone, lid],
    );
  }
}
