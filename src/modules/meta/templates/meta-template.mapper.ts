import type { ProviderTemplate, TemplateSubmission } from '../../content/templates/template-provider.port.js';
import { parameterKeys } from '../../content/templates/template-body.js';
import type { GraphTemplate } from '../graph/graph-api.js';
import { type CallbackChange, idText, text } from '../callback/callback-payload.js';

/** A status or quality change the provider reported in a callback. */
export interface TemplateUpdate {
  providerId: string;
  status?: string;
  quality?: string;
}

/** A named parameter (`{{first_name}}`, the provider's `parameter_format: NAMED`), not a numbered one (`{{1}}`). */
export const isNamedParameter = (key: string): boolean => !/^\d+$/.test(key);

/** A listed template in the port's words: its BODY text, statuses and qualities upper case, null when the provider gave none. */
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
    quality: score ? score.toUpperCase() : null,
  };
}

/**
 * The provider's create body: the BODY component with a sample value per parameter, which the
 * provider requires for review. Numbered parameters (`{{1}}`) are positional samples; named ones
 * make the template `parameter_format: NAMED` with named samples.
 */
export function toGraphTemplate(submission: TemplateSubmission): Record<string, unknown> {
  const keys = parameterKeys(submission.body);
  const named = keys.some(isNamedParameter);
  return {
    name: submission.name,
    language: submission.language,
    category: submission.category.toUpperCase(),
    ...(named ? { parameter_format: 'NAMED' } : {}),
    components: [{ type: 'BODY', text: submission.body, ...(keys.length ? { example: samples(keys, named) } : {}) }],
  };
}

function samples(keys: readonly string[], named: boolean): Record<string, unknown> {
  if (named) return { body_text_named_params: keys.map((key) => ({ param_name: key, example: `sample ${key}` })) };
  return { body_text: [keys.map((key) => `sample ${key}`)] };
}

/** The update a `message_template_status_update` or `message_template_quality_update` change carries, if any. */
export function templateUpdateOf(change: CallbackChange): TemplateUpdate | null {
  const value = change.value;
  const providerId = idText(value.message_template_id);
  if (!providerId) return null;
  if (change.field === 'message_template_status_update') {
    const status = text(value.event);
    return status ? { providerId, status: status.toUpperCase() } : null;
  }
  if (change.field === 'message_template_quality_update') {
    const quality = text(value.new_quality_score);
    return quality ? { providerId, quality: quality.toUpperCase() } : null;
  }
  return null;
}
