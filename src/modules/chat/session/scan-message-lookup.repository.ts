import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type SqlExecutor, sqlExecutorOf } from '../../../infra/database/sql-executor.js';
import type { StoredScanMessage } from '../driver/scan-driver.port.js';

/**
 * Answers the channel's retry requests (`getMessage`): a recipient that could not decrypt a
 * message asks the sender to encrypt it again, which needs what was sent. Only messages this
 * number sent through the scan channel qualify.
 */
@Injectable()
export class ScanMessageLookupRepository {
  private readonly sql: SqlExecutor;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = sqlExecutorOf(db);
  }

  // By id alone: ids are unique per workspace and channel, and the channel may name the chat in
  // its other form (LID or phone) than the conversation stores.
  async outbound(workspaceId: string, externalId: string): Promise<StoredScanMessage | undefined> {
    const rows: StoredScanMessage[] = await this.sql.query(
      `SELECT message_type AS type, content, details FROM messages
        WHERE workspace_id = $1 AND channel = 'scan' AND external_id = $2 AND direction = 'outbound'`,
      [workspaceId, externalId],
    );
    return rows[0];
  }
}
