import { ApiError } from '../../../infra/http/api-error.js';
import type { TemplateParameter } from '../../channels/channel-gateway.port.js';

// `{{1}}`, `{{ 2 }}`; provider templates may also use named parameters (`{{first_name}}`).
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]{1,64})\s*\}\}/g;
const NUMBERED = /^[1-9]\d{0,2}$/;

const distinctKeys = (body: string): string[] => [...new Set([...body.matchAll(PLACEHOLDER)].map((match) => match[1]!))];

/**
 * The parameters a body takes, in the order a send gives their values: numbered ones by number,
 * named ones (which only provider templates have) by first appearance.
 */
export function parameterKeys(body: string): string[] {
  const keys = distinctKeys(body);
  return keys.every((key) => NUMBERED.test(key)) ? keys.sort((a, b) => Number(a) - Number(b)) : keys;
}

/** A local template's parameters are `{{1}}` to `{{n}}` without gaps; the problem's text, or null. */
export function localBodyProblem(body: string): string | null {
  const keys = distinctKeys(body);
  if (!keys.every((key) => NUMBERED.test(key))) return 'template parameters must be numbered: {{1}}, {{2}}, …';
  const numbers = keys.map(Number).sort((a, b) => a - b);
  if (numbers.some((n, i) => n !== i + 1)) return `template parameters must be numbered {{1}} to {{${numbers.length}}} without gaps`;
  return null;
}

/**
 * Pairs the values of a send with the body's parameters: every parameter needs a non-blank value
 * and no value may be left over (the Cloud API refuses a send whose count differs), else a 400.
 */
export function bindParameters(body: string, values: readonly string[]): TemplateParameter[] {
  const keys = parameterKeys(body);
  if (values.length > keys.length) {
    throw ApiError.badRequest(`the template takes ${keys.length} parameter${keys.length === 1 ? '' : 's'}, ${values.length} were given`);
  }
  return keys.map((key, index) => {
    const text = values[index];
    if (text === undefined) throw ApiError.badRequest(`template parameter {{${key}}} is missing (the template takes ${keys.length})`);
    if (!text.trim()) throw ApiError.badRequest(`template parameter {{${key}}} is empty`);
    return { key, text };
  });
}

/** The body with each parameter replaced by its value, in one pass (a value is never expanded again). */
export function fillBody(body: string, parameters: readonly TemplateParameter[]): string {
  const byKey = new Map(parameters.map((parameter) => [parameter.key, parameter.text]));
  return body.replace(PLACEHOLDER, (whole, key: string) => byKey.get(key) ?? whole);
}
