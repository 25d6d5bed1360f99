import { randomBytes } from 'node:crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { derivePurposeKey, sealWithKey } from '../../crypto/sealing.js';
import { migrationEncryptionKey } from '../migration-context.js';

// Frozen copies of the webhooks module's format (a migration must not change when the module does).
const PURPOSE = 'webhook-secret';
const CHUNK = 1000;

/**
 * Gives every existing workspace its webhook signing secret, `whsec_` + base64 of 32 random
 * bytes, sealed as the service seals it. Needs the service's ENCRYPTION_KEY, which the service's
 * own migrator passes (start-up, `npm run migration:run`); run without it (the TypeORM CLI), it
 * leaves the workspaces to the service, which creates any missing secret at start-up and on
 * first use.
 */
export class WebhookSecrets1764001000001 implements MigrationInterface {
  name = 'WebhookSecrets1764001000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const rootKey = migrationEncryptionKey();
    if (!rootKey) return;
    const key = derivePurposeKey(rootKey, PURPOSE);
    for (;;) {
      const rows: { id: string }[] = await queryRunner.query(
        `SELECT w.id FROM workspaces w WHERE NOT EXISTS (SELECT 1 FROM webhook_secrets s WHERE s.workspace_id = w.id) LIMIT ${CHUNK}`,
      );
      if (rows.length === 0) return;
      const sealed = rows.map(() => sealWithKey(key, `whsec_${randomBytes(32).toString('base64')}`));
      await queryRunner.query(`INSERT INTO webhook_secrets (workspace_id, secret) SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT DO NOTHING`, [
        rows.map((row) => row.id),
        sealed,
      ]);
    }
  }

  public async down(): Promise<void> {
    // The secrets go with the table (the previous migration's down).
  }
}
