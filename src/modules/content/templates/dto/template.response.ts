import { ApiProperty } from '@nestjs/swagger';

/** docs/content.md#templates: a template. `status`, `quality` and `provider_id` are set on Cloud API workspaces. */
export class TemplateResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'order_update' })
  name: string;

  @ApiProperty({ example: 'en_US' })
  language: string;

  @ApiProperty({ example: 'UTILITY', description: '`MARKETING`, `UTILITY` or `AUTHENTICATION`' })
  category: string;

  @ApiProperty({ example: 'Hello {{1}}, your order {{2}} has shipped.', description: 'with `{{1}}`-style parameters' })
  body: string;

  @ApiProperty({ type: String, nullable: true, example: 'APPROVED', description: "the provider's review status; null for a local template" })
  status: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'GREEN', description: "the provider's quality rating; null when unknown or local" })
  quality: string | null;

  @ApiProperty({ type: String, nullable: true, description: "the provider's template id; null for a local template" })
  provider_id: string | null;
}
