import { NON_BLANK, type SchemaRules } from '../../../infra/http/schema-rules.js';
import type { SendType } from './message.dto.js';

/**
 * The rules of a send that no single field states, as the request schema gives them; the
 * service checks them (`buildDraft`, `messageText` and `parseTemplateRequest` in
 * messages/outgoing-draft.ts). Keep the two side by side when either changes.
 */

/** `body` and `content` are one text: at most one of the two (equal texts aside), not blank. */
export const ONE_TEXT: SchemaRules = {
  not: { required: ['body', 'content'] },
  properties: { body: { type: 'string', pattern: NON_BLANK }, content: { type: 'string', pattern: NON_BLANK } },
};

const typed = (type: SendType, rules: SchemaRules): SchemaRules => ({ ...rules, properties: { type: { type: 'string', enum: [type] }, ...rules.properties } });

// Every send type needs its branch: a type added to SEND_TYPES without one does not compile.
const SENDS: Record<SendType, SchemaRules> = {
  // `type` may be left out for a text.
  text: typed('text', { description: 'a text: `body` (or `content`)', anyOf: [{ required: ['body'] }, { required: ['content'] }] }),
  image: typed('image', {
    description: 'an image: `media` (an `image/*` file), `caption`',
    required: ['type', 'media'],
    properties: { media: { properties: { mime_type: { type: 'string', pattern: '^image/' } } } },
  }),
  document: typed('document', { description: 'a document: `media`, `caption`', required: ['type', 'media'] }),
  template: typed('template', { description: 'a template: `template_id`, `parameters`', required: ['type', 'template_id'] }),
};

export const SEND_RULES = (types: readonly SendType[]): SchemaRules => ({ allOf: [ONE_TEXT], oneOf: types.map((type) => SENDS[type]) });

/** Media is a file given one way: an address, or its bytes with their type. */
export const MEDIA_RULES: SchemaRules = {
  oneOf: [
    { required: ['url'], not: { required: ['data_base64'] } },
    { required: ['data_base64', 'mime_type'], not: { required: ['url'] } },
  ],
};

export const MEDIA_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$';
/** Whole base64 quads, padding only at the end, at least one byte. */
export const BASE64_PATTERN = '^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$';
