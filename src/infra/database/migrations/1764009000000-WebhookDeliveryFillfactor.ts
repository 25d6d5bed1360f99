import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Room in each page of webhook_deliveries, so a drain's claim (it sets only `claimed_until`,
 * which no index covers) is a HOT update: a new row version on the same page, no index entries.
 * With full pages every claim wrote an entry into each of the table's six indexes.
 */
export class WebhookDeliveryFillfactor1764009000000 implements MigrationInterface {
    name = 'WebhookDeliveryFillfactor1764009000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" SET (fillfactor = 70)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" RESET (fillfactor)`);
    }

}
