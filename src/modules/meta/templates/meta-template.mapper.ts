import type { GraphTemplate } from '../graph/graph-api.js';
import { type CallbackChange, idText, text } from '../callback/callback-payload.js';

/** A template as the provider knows it, in the inbox's words. */
export interface ProviderTemplate {
  providerId: string;
  name: string;
  language: string;
  /** `MARKETING`, `UTILITY` or `AUTHENTICATION`. */
  category: string;
  /** The BODY component's text, with `{{1}}`-style parameters. */
  body: string;
  /** The provider's status: `APPROVED`, `PENDING`, `REJECTED`, `PAUSED`, `DISABLED`, … */
  status: string;
  /** `GREEN`, `YELLOW`, `RED` or `UNKNOWN` (new templates). */
  quality: string;
}

/** What a workspace submits for review. */
export interface TemplateDraft {
  name: string;
  language: string;
  category: string;
  body: string;
  /** Sample values of the body's parameters, which the provider requires; generated when absent. */
  examples?: string[];
}

/** A status or quality change the provider reported in a callback. */
export interface TemplateUpdate {
  wabaId: string;
  providerId: string;
  name: string;
  language: string;
  status?: string;
  quality?: string;
}

export function fromGraphTemplate(template: GraphTemplate): ProviderTemplate {
  const body = template.components?.find((c) => String(c.type).toUpperCase() === 'BODY')?.text ?? '';
  const score = typeof template.quality_score === 'string' ? template.quality_score : template.quality_score?.score;
  return {
    providerId: String(template.id),
    name: template.name,
    language: template.language,
    category: (template.category ?? '').toUpperCase(),
    body,
    status: (template.status ?? 'PENDING').toUpperCase(),
    quality: (score ?? 'UNKNOWN').toUpperCase(),
  };
}

/** The number of distinct `{{n}}` parameters of a body. */
export const parameterCount = (body: string): number => new Set(body.match(/\{\{\s*\d+\s*\}\}/g)?.map((p) => p.replace(/\s/g, '')) ?? []).size;

/** The provider's create body: the BODY component, with sample values when it has parameters. */
export function toGraphTemplate(draft: TemplateDraft): Record<string, unknown> {
  const count = parameterCount(draft.body);
  const samples = Array.from({ length: count }, (_, i) => draft.examples?.[i] ?? `sample ${i + 1}`);
  const body: Record<string, unknown> = { type: 'BODY', text: draft.body, ...(count ? { example: { body_text: [samples] } } : {}) };
  return { name: draft.name, language: draft.language, category: draft.category.toUpperCase(), components: [body] };
}

/** The update a `message_template_status_update` or `message_template_quality_update` change carries, if any. */
export function templateUpdateOf(change: CallbackChange): TemplateUpdate | null {
  const value = change.value;
  const providerId = idText(value.message_template_id);
  if (!change.wabaId || !providerId) return null;
  const base = { wabaId: change.wabaId, providerId, name: text(value.message_template_name) ?? '', language: text(value.message_template_language) ?? '' };
  if (change.field === 'message_template_status_update') {
    const status = text(value.event);
    return status ? { ...base, status: status.toUpperCase() } : null;
  }
  if (change.field === 'message_template_quality_update') {
    const quality = text(value.new_quality_score);
    return quality ? { ...base, quality: quality.toUpperCase() } : null;
  }
  return null;
}
