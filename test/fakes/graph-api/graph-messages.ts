import { GRAPH_ERRORS, type FakeGraphError } from './graph-errors.js';
import type { FakeTemplate, GraphWorld } from './graph-world.js';

/**
 * What the fake checks of a `POST /{phone-number-id}/messages` body, by `type`, as the provider
 * documents it (messages reference: media, location, contacts, interactive reply buttons and
 * lists, reactions, templates with header and button components). A body it would refuse gets the
 * provider's error; the fake knows no customer-service window (a test makes a send fail with
 * `failNext(…, GRAPH_ERRORS.reEngagement)`).
 */
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const isText = (value: unknown, max = Infinity): value is string => typeof value === 'string' && value.trim() !== '' && [...value].length <= max;
const invalid = GRAPH_ERRORS.invalidParameter;

const MEDIA_TYPES = new Set(['image', 'document', 'video', 'audio', 'sticker']);

/** The provider's refusal of a send body, or null when it would take it. */
export function messageRefusal(world: GraphWorld, wabaId: string, body: Json): FakeGraphError | null {
  if (body.context !== undefined && !(isObject(body.context) && isText(body.context.message_id))) return invalid('context.message_id is required');
  const type = String(body.type ?? 'text');
  const part = body[type];
  if (type === 'contacts') return contactsRefusal(part);
  if (!isObject(part)) return invalid(`${type} object is required`);
  if (MEDIA_TYPES.has(type)) return mediaRefusal(world, type, part);
  switch (type) {
    case 'text':
      return isText(part.body, 4096) ? null : invalid('text.body is required (at most 4096 characters)');
    case 'location':
      return Number.isFinite(Number(part.latitude)) && Number.isFinite(Number(part.longitude)) ? null : invalid('location needs latitude and longitude');
    case 'reaction':
      return isText(part.message_id) && typeof part.emoji === 'string' ? null : invalid('reaction needs message_id and emoji');
    case 'interactive':
      return interactiveRefusal(part);
    case 'template':
      return templateRefusal(world, wabaId, part);
    default:
      return invalid(`type ${type} is not supported`);
  }
}

function mediaRefusal(world: GraphWorld, type: string, part: Json): FakeGraphError | null {
  if (typeof part.link !== 'string' && !world.media.has(String(part.id))) return invalid(`${type} needs a link or the id of an uploaded media`);
  if ((type === 'audio' || type === 'sticker') && part.caption !== undefined) return invalid(`${type} takes no caption`);
  if (part.voice !== undefined && (type !== 'audio' || typeof part.voice !== 'boolean')) return invalid('voice is a boolean of an audio');
  return null;
}

function contactsRefusal(value: unknown): FakeGraphError | null {
  const cards = objects(value);
  if (!Array.isArray(value) || cards.length === 0 || cards.length !== value.length) return invalid('contacts must be a non-empty array of contact objects');
  for (const card of cards) {
    const name = isObject(card.name) ? card.name : {};
    if (!isText(name.formatted_name)) return invalid('contacts[].name.formatted_name is required');
    // The provider wants one more name part beside the formatted name.
    if (!['first_name', 'last_name', 'middle_name', 'prefix', 'suffix'].some((key) => isText(name[key])))
      return invalid('contacts[].name needs a name part beside formatted_name');
  }
  return null;
}

function interactiveRefusal(part: Json): FakeGraphError | null {
  const action = isObject(part.action) ? part.action : {};
  const body = isObject(part.body) ? part.body.text : undefined;
  if (part.header !== undefined && !(isObject(part.header) && part.header.type === 'text' && isText(part.header.text, 60)))
    return invalid('header must be a text of at most 60 characters');
  if (part.footer !== undefined && !(isObject(part.footer) && isText(part.footer.text, 60))) return invalid('footer.text must be at most 60 characters');
  if (part.type === 'button') {
    if (!isText(body, 1024)) return invalid('body.text is required (at most 1024 characters)');
    const buttons = objects(action.buttons);
    if (buttons.length < 1 || buttons.length > 3) return invalid('action.buttons must hold 1 to 3 buttons');
    const replies = buttons.map((b) => (b.type === 'reply' && isObject(b.reply) ? b.reply : {}));
    if (!replies.every((r) => isText(r.id, 256) && isText(r.title, 20)))
      return invalid('each button needs reply.id (at most 256) and reply.title (at most 20 characters)');
    if (new Set(replies.map((r) => r.title)).size !== replies.length) return invalid('button titles must be unique');
    return null;
  }
  if (part.type === 'list') {
    if (!isText(body, 4096)) return invalid('body.text is required (at most 4096 characters)');
    if (!isText(action.button, 20)) return invalid('action.button is required (at most 20 characters)');
    const sections = objects(action.sections);
    const rows = sections.flatMap((s) => objects(s.rows));
    if (sections.length < 1 || sections.length > 10 || rows.length < 1 || rows.length > 10)
      return invalid('a list holds 1 to 10 sections and 1 to 10 rows in all');
    if (sections.length > 1 && !sections.every((s) => isText(s.title, 24))) return invalid('sections need titles when there are several');
    if (!rows.every((r) => isText(r.id, 200) && isText(r.title, 24) && (r.description === undefined || isText(r.description, 72))))
      return invalid('rows need id and title');
    if (new Set(rows.map((r) => r.id)).size !== rows.length) return invalid('row ids must be unique');
    return null;
  }
  return invalid(`interactive type ${String(part.type)} is not supported`);
}

const PLACEHOLDERS = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const placeholders = (text: unknown): string[] => [...new Set([...String(text ?? '').matchAll(PLACEHOLDERS)].map((m) => m[1]!))];
const component = (template: FakeTemplate, type: string): Json | undefined => template.components.find((c) => String(c.type).toUpperCase() === type);

/**
 * A template send against the stored template: the body's parameters by count (and by name for a
 * NAMED template), a header parameter exactly when the header takes one (of its format), and a
 * button parameter for every button that needs one (a URL with a placeholder, a copy-code button),
 * none for a button that does not exist.
 */
function templateRefusal(world: GraphWorld, wabaId: string, part: Json): FakeGraphError | null {
  const language = isObject(part.language) ? part.language.code : undefined;
  const template = (world.templates.get(wabaId) ?? []).find((t) => t.name === part.name && t.language === language);
  if (!template)
    return {
      code: 132001,
      message: '(#132001) Template name does not exist in the translation',
      details: `template name (${String(part.name)}) does not exist in ${String(language)}`,
    };
  const components = objects(part.components);
  const of = (type: string) => components.filter((c) => c.type === type);
  const parametersOf = (c: Json | undefined) => objects(c?.parameters);

  const names = placeholders(component(template, 'BODY')?.text);
  const given = of('body').flatMap(parametersOf);
  if (given.length !== names.length) return GRAPH_ERRORS.templateParameters;
  const named = names.some((name) => !/^\d+$/.test(name));
  if (named && given.some((p) => !names.includes(String(p.parameter_name)))) return invalid('parameter_name does not match the template');

  const header = component(template, 'HEADER');
  const format = String(header?.format ?? 'TEXT').toLowerCase();
  const wantsHeader = header !== undefined && (format !== 'text' || placeholders(header.text).length > 0);
  const headerParameters = of('header').flatMap(parametersOf);
  if (!wantsHeader && headerParameters.length > 0) return { ...GRAPH_ERRORS.templateParameters, details: 'header: the template has no header parameter' };
  if (wantsHeader) {
    const [parameter] = headerParameters;
    if (headerParameters.length !== 1 || parameter!.type !== format)
      return { ...GRAPH_ERRORS.templateParameters, details: `header: expected one ${format} parameter` };
    const file = parameter![format];
    if (format === 'text' ? !isText(parameter!.text, 60) : !(isObject(file) && (typeof file.link === 'string' || world.media.has(String(file.id)))))
      return invalid(`header ${format} parameter is invalid`);
  }

  const buttons = objects(component(template, 'BUTTONS')?.buttons);
  const buttonParameters = of('button');
  const SUB_TYPES: Record<string, string> = { URL: 'url', QUICK_REPLY: 'quick_reply', COPY_CODE: 'copy_code' };
  for (const given of buttonParameters) {
    const defined = buttons[Number(given.index)];
    if (!defined || SUB_TYPES[String(defined.type).toUpperCase()] !== given.sub_type)
      return invalid(`button ${String(given.index)} is not a ${String(given.sub_type)} button of the template`);
    const [parameter] = parametersOf(given);
    const expected = { url: 'text', quick_reply: 'payload', copy_code: 'coupon_code' }[String(given.sub_type)]!;
    if (!parameter || parameter.type !== expected || !isText(parameter[expected]))
      return invalid(`button ${String(given.index)} needs a ${expected} parameter`);
  }
  for (const [index, button] of buttons.entries()) {
    const type = String(button.type).toUpperCase();
    const needs = (type === 'URL' && placeholders(button.url).length > 0) || type === 'COPY_CODE';
    if (needs && !buttonParameters.some((b) => Number(b.index) === index))
      return { ...GRAPH_ERRORS.templateParameters, details: `button ${index}: parameter missing` };
  }
  return null;
}
