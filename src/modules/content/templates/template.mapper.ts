import type { TemplateResponse } from './dto/template.response.js';
import type { TemplateEntity } from './entities/template.entity.js';

export function toTemplateResponse(row: TemplateEntity): TemplateResponse {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    body: row.body,
    status: row.status,
    quality: row.quality,
    provider_id: row.providerId,
  };
}
