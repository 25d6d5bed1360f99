import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room in each page of webhook_deliveries, so a drain's claim (it sets only `claimed_until`,
 * which no index covers) is a HOT update: a new row version on the same page, no index entries.
 * With full pages every claim wrote an entry into each of the table's six indexes. Half the page:
 * a claim updates many rows of one page in one statement (concurrent drains share it, and rows
 * written together sit together), and every new version must fit beside the old ones; at 70 the
 * later ones did not (bench drain: the claim's WAL records fell from 5.3 to 2.4 per delivery and
 * its time by 60 % going from 70 to 50).
 */
export class WebhookDeliveryFillfactor1764009000000 implements MigrationInterface {
  name = 'WebhookDeliveryFillfactor1764009000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" SET (fillfactor = 50)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" RESET (fillfactor)`);
  }
}
