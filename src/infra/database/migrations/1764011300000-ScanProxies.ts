import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each number's own egress proxy, its URL sealed (issue 37); WA_PROXY_URL is the default of the others. */
export class ScanProxies1764011300000 implements MigrationInterface {
  name = 'ScanProxies1764011300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scan_proxies" ("workspace_id" uuid NOT NULL, "sealed_url" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e01e2df5b8c300323f7db64389f" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "scan_proxies" ADD CONSTRAINT "FK_e01e2df5b8c300323f7db64389f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_proxies" DROP CONSTRAINT "FK_e01e2df5b8c300323f7db64389f"`);
    await queryRunner.query(`DROP TABLE "scan_proxies"`);
  }
}
