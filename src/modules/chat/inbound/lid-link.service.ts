import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChannelUpdatesService } from '../../inbox/ingest/channel-updates.service.js';
import { ContactMergeService } from '../../inbox/ingest/contact-merge.service.js';
import { withRetry } from '../../inbox/ingest/retry.js';
import { inTransaction } from '../../../infra/database/sql-transaction.js';
import type { ScanLidMapping } from '../driver/scan-driver.port.js';
import { lidOfJid, phoneOfJid } from './scan-message.mapper.js';
import { normalizeLid, normalizePhone } from '../../inbox/jid.js';

const CHUNK = 200;

/** Accepts `<digits>@lid`, `<digits>:<device>@lid` or bare digits. */
const lidOf = (raw: string): string | null => (raw.includes('@') ? lidOfJid(raw) : normalizeLid(raw));
const phoneOf = (raw: string): string | null => (raw.includes('@') ? phoneOfJid(raw) : normalizePhone(raw));

/**
 * LID ↔ phone mappings the channel learns: one person's two ids. The inbox's split-contact merge
 * runs first (a phone-only and a LID-only contact of the same person become one), then each
 * contact gets the id it lacks and a LID-addressed chat its phone number. No contact is created
 * for a mapping alone: contacts come from messages or from people.
 */
@Injectable()
export class LidLinkService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly merges: ContactMergeService,
    private readonly inbox: ChannelUpdatesService,
  ) {}

  async link(workspaceId: string, mappings: readonly ScanLidMapping[]): Promise<void> {
    const pairs = mappings
      .map((m) => ({ phone: phoneOf(m.phone), lid: lidOf(m.lid) }))
      .filter((p): p is { phone: string; lid: string } => p.phone !== null && p.lid !== null);
    // History batches carry thousands: a transaction per chunk, in phone order so that concurrent
    // links lock contacts in the same order (a deadlock that still happens is retried).
    pairs.sort((a, b) => a.phone.localeCompare(b.phone));
    for (let start = 0; start < pairs.length; start += CHUNK) {
      const chunk = pairs.slice(start, start + CHUNK);
      await withRetry(() =>
        inTransaction(this.db, async (tx) => {
          for (const { phone, lid } of chunk) {
            await this.merges.mergeSplit(workspaceId, { phone, lid, name: '' }, tx);
            await this.inbox.linkLid(workspaceId, phone, lid, tx);
          }
        }),
      );
    }
  }
}
