import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook filters beyond the event type (issue 38): `channels` (the channels whose events it
 * receives; null: all) and `include_groups` (whether events of group chats reach it). Existing
 * webhooks keep receiving what they did: all channels, groups included.
 */
export class WebhookFilters1764011500000 implements MigrationInterface {
  name = 'WebhookFilters1764011500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "channels" text array`);
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "include_groups" boolean NOT NULL DEFAULT true`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "include_groups"`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "channels"`);
  }
}
