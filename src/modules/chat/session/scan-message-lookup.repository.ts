import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredScanMessage } from '../driver/scan-driver.port.js';

/**
 * Answers the channel's retry requests (`getMessage`): a recipient that could not decrypt a
 * message asks the sender to encrypt it again, which needs what was sent. Only messages this
 * number sent through the scan channel qualify.
 */
@Injectable()
export class ScanMessageLookupRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // By id alone: ids are unique per workspace and channel, and the channel may name the chat in
  // its other form (LID or phone) than the conversation stores.
  async outbound(workspaceId: string, externalId: string): Promise<StoredScanMessage | undefined> {
    const rows: { type: StoredScanMessage['type']; content: string }[] = await this.db.query(
      `SELECT message_type AS type, content FROM messages
        WHERE workspace_id = $1 AND channel = 'scan' AND external_id = $2 AND direction = 'outbound'`,
      [workspaceId, externalId],
    );
    return rows[0];
  }
}
