import { ApiError } from './api-error.js';

/**
 * A free-text query parameter (`?q=`), trimmed and cut to `max` characters; '' when absent. Given
 * twice (`?q=a&q=b`) Express hands over an array: that is a 400 naming the parameter, where it used
 * to be read as no filter at all (a contact search that silently listed every contact).
 */
export function queryText(value: unknown, name: string, max: number): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw ApiError.badRequest(`${name} must be given once, as text`);
  return value.trim().slice(0, max);
}
