declare const JSON_TEXT: unique symbol;

/**
 * One JSON document's text, as `JSON.stringify` writes it. The outbox passes a group's bodies to
 * Postgres as one JSON array of them; a string that is not exactly one JSON value (`1,2`, say)
 * would shift every later body onto the wrong event, so only this function makes one.
 */
export type JsonText = string & { readonly [JSON_TEXT]: true };

export const jsonText = (value: unknown): JsonText => JSON.stringify(value) as JsonText;
