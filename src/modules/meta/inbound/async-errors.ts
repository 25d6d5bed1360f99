import { isObject, type Json, text } from '../callback/callback-payload.js';

/**
 * The text a message marked failed keeps for an asynchronous provider error
 * (`{code, title, message, error_data: {details}}`): the provider's code and words, e.g.
 * `131047 Re-engagement message: More than 24 hours have passed since the recipient last replied`.
 */
export function asyncErrorText(error: Json | undefined): string | undefined {
  if (!error) return undefined;
  const code = typeof error.code === 'number' || typeof error.code === 'string' ? String(error.code) : '';
  const title = text(error.title) ?? text(error.message) ?? '';
  const details = isObject(error.error_data) ? text(error.error_data.details) : undefined;
  const words = [title, details && details !== title ? details : undefined].filter(Boolean).join(': ');
  return [code, words].filter(Boolean).join(' ') || 'the provider reported an error';
}

const WAMID = /wamid\.[A-Za-z0-9+/=_-]+/g;

/** Message ids an error quotes: a `message_id` field, or `wamid.…` inside its texts. */
export function messageIdsIn(error: Json): string[] {
  const data = isObject(error.error_data) ? error.error_data : {};
  const direct = [text(error.message_id), text(data.message_id)].filter((id): id is string => id !== undefined);
  const quoted = [text(error.message), text(error.title), text(data.details)].flatMap((t) => t?.match(WAMID) ?? []);
  return [...new Set([...direct, ...quoted])];
}
