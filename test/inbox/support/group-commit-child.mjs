// A process that ingests waves of messages through group commit and prints `ack <id>` for each
// once `ingest()` answered (what a channel takes as "stored": it stops redelivering). Its hook
// holds every group's transaction open a while and prints `in-transaction`, so a test can kill
// the process in the middle of a group. Runs the built service code (dist/).
//   node group-commit-child.mjs <database url> <workspace id> <prefix> <waves> <per wave>
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../../dist/src/entities.js';
import { dataSourceOptions } from '../../../dist/src/infra/database/data-source-options.js';
import { ConversationRepository } from '../../../dist/src/modules/inbox/conversations/conversation.repository.js';
import { InboxEvents } from '../../../dist/src/modules/inbox/inbox-events.service.js';
import { BatchIngestRepository } from '../../../dist/src/modules/inbox/ingest/batch-ingest.repository.js';
import { ContactMergeRepository } from '../../../dist/src/modules/inbox/ingest/contact-merge.repository.js';
import { ContactMergeService } from '../../../dist/src/modules/inbox/ingest/contact-merge.service.js';
import { InboxIngestService } from '../../../dist/src/modules/inbox/ingest/inbox-ingest.service.js';
import { IngestHooks } from '../../../dist/src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../../dist/src/modules/inbox/ingest/ingest.repository.js';

const [url, workspaceId, prefix, waves, perWave] = process.argv.slice(2);
const db = new DataSource(dataSourceOptions(url, ENTITIES, { extra: { max: 4 } }));
await db.initialize();
const hooks = new IngestHooks();
hooks.register({
  inTransactionMany: async (tx) => {
    process.stdout.write('in-transaction\n');
    await tx.query('SELECT pg_sleep(0.2)');
  },
});
const noop = async () => undefined;
const ingest = new InboxIngestService(
  db,
  new IngestRepository(),
  new BatchIngestRepository(),
  new ContactMergeService(new ContactMergeRepository()),
  hooks,
  new InboxEvents({ publish: noop, publishAll: noop }, new ConversationRepository(db)),
);
const phones = ['4917000000001', '4917000000002', '4917000000003'];
for (let wave = 0; wave < Number(waves); wave++) {
  await Promise.all(
    Array.from({ length: Number(perWave) }, async (_, i) => {
      const externalId = `${prefix}-${wave}-${i}`;
      const phone = phones[i % phones.length];
      await ingest.ingest(workspaceId, {
        channel: 'scan',
        externalId,
        chatJid: `${phone}@s.whatsapp.net`,
        contact: { phone },
        content: externalId,
        timestamp: new Date(),
      });
      process.stdout.write(`ack ${externalId}\n`);
    }),
  );
}
process.stdout.write('done\n');
await db.destroy();
