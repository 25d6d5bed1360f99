import { MigrationInterface, QueryRunner } from 'typeorm';
import { derivePurposeKey, sealWithKey, unsealWithKey } from '../../crypto/sealing.js';
import { migrationEncryptionKey } from '../migration-context.js';

// Frozen copies of the webhooks module's format (a migration must not change when the module does).
const PURPOSE = 'webhook-url';
const MASK = '***';
// A URL with a user-info part: `scheme://…@` before the first `/`, `?` or `#` of the authority.
const WITH_USERINFO = `url ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@'`;

function masked(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = MASK;
  else copy.username = MASK;
  return copy.href;
}

/**
 * Webhook URLs with credentials (`https://user:pass@host/…`) are sealed at rest: `sealed_url`
 * holds the whole URL, AES-GCM sealed as the service seals it, and `url` keeps it with the
 * credential masked (what the API shows). Existing rows are sealed here, which needs the
 * service's ENCRYPTION_KEY: run without it (the TypeORM CLI) while such a row exists, it fails
 * rather than leave a password in plain text. `down` writes the whole URLs back (with the key
 * too, for the same reason: without it they would lose their credentials).
 */
export class WebhookSealedUrls1764011100000 implements MigrationInterface {
  name = 'WebhookSealedUrls1764011100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "sealed_url" text`);
    const rows: { id: string; url: string }[] = await queryRunner.query(`SELECT id, url FROM webhooks WHERE ${WITH_USERINFO}`);
    const withCredentials = rows.flatMap(({ id, url }) => {
      const parsed = URL.parse(url);
      return parsed && (parsed.username || parsed.password) ? [{ id, url: parsed }] : [];
    });
    if (withCredentials.length === 0) return;
    const rootKey = migrationEncryptionKey();
    if (!rootKey) {
      throw new Error(
        `sealing the credentials of ${withCredentials.length} webhook URL(s) needs ENCRYPTION_KEY: run the service's migrator (start-up or \`npm run migration:run\`)`,
      );
    }
    const key = derivePurposeKey(rootKey, PURPOSE);
    await queryRunner.query(
      `UPDATE webhooks w SET url = v.url, sealed_url = v.sealed FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, url, sealed) WHERE w.id = v.id`,
      [withCredentials.map((row) => row.id), withCredentials.map((row) => masked(row.url)), withCredentials.map((row) => sealWithKey(key, row.url.href))],
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const rows: { id: string; sealed: string }[] = await queryRunner.query(`SELECT id, sealed_url AS sealed FROM webhooks WHERE sealed_url IS NOT NULL`);
    if (rows.length > 0) {
      const rootKey = migrationEncryptionKey();
      if (!rootKey) throw new Error(`writing ${rows.length} sealed webhook URL(s) back needs ENCRYPTION_KEY (the migration context of the service's migrator)`);
      const key = derivePurposeKey(rootKey, PURPOSE);
      await queryRunner.query(`UPDATE webhooks w SET url = v.url FROM unnest($1::uuid[], $2::text[]) AS v(id, url) WHERE w.id = v.id`, [
        rows.map((row) => row.id),
        rows.map((row) => unsealWithKey(key, row.sealed).toString('utf8')),
      ]);
    }
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "sealed_url"`);
  }
}
