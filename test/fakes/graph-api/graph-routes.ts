import type { IncomingHttpHeaders } from 'node:http';
import { GRAPH_ERRORS, type FakeGraphError, graphErrorBody } from './graph-errors.js';
import { messageRefusal } from './graph-messages.js';
import type { FakeTemplate, GraphWorld } from './graph-world.js';

/** A file part of a multipart upload. */
export interface FormFile {
  fileName: string;
  type: string;
  data: Buffer;
}

/** One request the fake received, as tests inspect it. */
export interface GraphRequest {
  method: string;
  /** The path without the version: `/106540352242922/messages`. */
  path: string;
  /** `v23.0`; empty for unversioned paths (media downloads). */
  version: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The Bearer token, or null. */
  token: string | null;
  body: Buffer;
  /** The JSON body, when it was JSON. */
  json: unknown;
  /** The fields of a multipart body. */
  form: Record<string, string | FormFile> | null;
  /** When the fake received it (ms since the epoch): tests of retry back-offs measure the gaps. */
  at: number;
}

export interface GraphAnswer {
  status: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
}

type Json = Record<string, unknown>;
const ok = (json: unknown): GraphAnswer => ({ status: 200, json });
export const fail = (error: FakeGraphError): GraphAnswer => ({ status: error.status ?? 400, json: graphErrorBody(error) });
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The provider's behaviour for each endpoint the service calls (research: part B). */
export function answer(world: GraphWorld, req: GraphRequest, media: (id: string) => string, app: { id?: string; secret?: string }): GraphAnswer {
  const [id = '', edge = ''] = req.path.split('/').filter(Boolean);
  if (req.version === '' && id === '__media') return download(world, req, edge);
  if (id === 'oauth' && edge === 'access_token' && req.method === 'GET') return exchange(world, req, app);
  if (!world.knowsToken(req.token)) return fail(GRAPH_ERRORS.invalidToken);
  const template = world.templateById(id);
  if (template && !edge && req.method === 'GET' && world.reaches(req.token, template.wabaId)) return ok(asListed(template.template));
  const number = world.numbers.get(id);
  const isWaba = world.templates.has(id);
  if (!world.reaches(req.token, id) && !world.media.has(id)) return fail(GRAPH_ERRORS.unknownObject(id));
  const key = `${req.method} ${edge ? `:${edge}` : ''}`;
  if (number) {
    if (key === 'GET ') return ok({ id, display_phone_number: number.displayPhoneNumber, verified_name: number.verifiedName, quality_rating: 'GREEN' });
    if (key === 'POST :register') return register(number, req);
    if (key === 'POST :messages') return send(world, number.wabaId, req);
    if (key === 'POST :media') return upload(world, id, req);
  }
  if (isWaba) {
    if (key === 'GET :phone_numbers') {
      const data = [...world.numbers.values()]
        .filter((n) => n.wabaId === id)
        .map((n) => ({ id: n.id, display_phone_number: n.displayPhoneNumber, verified_name: n.verifiedName }));
      return ok({ data, paging: { cursors: { before: 'QVFI', after: 'QVFI' } } });
    }
    if (key === 'POST :subscribed_apps') {
      world.subscriptions.set(id, (world.subscriptions.get(id) ?? 0) + 1);
      return ok({ success: true });
    }
    if (key === 'GET :message_templates') return listTemplates(world, id, req);
    if (key === 'POST :message_templates') return createTemplate(world, id, req);
    if (key === 'DELETE :message_templates') return deleteTemplate(world, id, req);
  }
  const stored = world.media.get(id);
  if (stored && key === 'GET ' && world.reaches(req.token, stored.phoneNumberId)) {
    return ok({ messaging_product: 'whatsapp', url: media(id), mime_type: stored.mimeType, sha256: stored.sha256, file_size: stored.data.length, id });
  }
  return fail(GRAPH_ERRORS.unknownObject(id));
}

function exchange(world: GraphWorld, req: GraphRequest, app: { id?: string; secret?: string }): GraphAnswer {
  if ((app.id && req.query.client_id !== app.id) || (app.secret && req.query.client_secret !== app.secret)) {
    return fail({ code: 101, message: 'Error validating application. Invalid application ID.' });
  }
  const token = world.exchange(req.query.code ?? '');
  return token ? ok({ access_token: token, token_type: 'bearer' }) : fail(GRAPH_ERRORS.invalidCode);
}

function register(number: { pin?: string }, req: GraphRequest): GraphAnswer {
  const pin = isObject(req.json) ? req.json.pin : undefined;
  if (typeof pin !== 'string' || !/^\d{6}$/.test(pin)) return fail(GRAPH_ERRORS.invalidParameter('pin must be 6 digits'));
  if (number.pin && number.pin !== pin) return fail(GRAPH_ERRORS.registrationPinMismatch);
  number.pin = pin;
  return ok({ success: true });
}

function send(world: GraphWorld, wabaId: string, req: GraphRequest): GraphAnswer {
  const body = isObject(req.json) ? req.json : {};
  if (body.messaging_product !== 'whatsapp') return fail(GRAPH_ERRORS.invalidParameter('messaging_product must be whatsapp'));
  if (body.status === 'read')
    return typeof body.message_id === 'string' ? ok({ success: true }) : fail(GRAPH_ERRORS.invalidParameter('message_id is required'));
  const to = typeof body.to === 'string' ? body.to : undefined;
  const recipient = typeof body.recipient === 'string' ? body.recipient : undefined;
  if (!to && !recipient) return fail(GRAPH_ERRORS.invalidParameter('to or recipient is required'));
  const refusal = messageRefusal(world, wabaId, body);
  if (refusal) return fail(refusal);
  const contact = to ? { input: to, wa_id: to.replace(/\D/g, '') } : { input: recipient, user_id: recipient };
  return ok({ messaging_product: 'whatsapp', contacts: [contact], messages: [{ id: world.nextMessageId() }] });
}

function upload(world: GraphWorld, phoneNumberId: string, req: GraphRequest): GraphAnswer {
  const file = req.form?.file;
  if (!file || typeof file === 'string' || req.form?.messaging_product !== 'whatsapp')
    return fail(GRAPH_ERRORS.invalidParameter('file and messaging_product are required'));
  const mimeType = typeof req.form?.type === 'string' ? req.form.type : file.type;
  return ok({ id: world.addMedia({ data: file.data, mimeType, phoneNumberId }).id });
}

function download(world: GraphWorld, req: GraphRequest, id: string): GraphAnswer {
  const stored = world.media.get(id);
  if (!stored || !world.reaches(req.token, stored.phoneNumberId)) return fail(GRAPH_ERRORS.invalidToken);
  return { status: 200, bytes: stored.data, contentType: stored.mimeType };
}

const asListed = (t: FakeTemplate): Json => ({
  id: t.id,
  name: t.name,
  language: t.language,
  status: t.status,
  category: t.category,
  components: t.components,
  ...(t.quality ? { quality_score: { score: t.quality } } : {}),
});

function listTemplates(world: GraphWorld, wabaId: string, req: GraphRequest): GraphAnswer {
  const limit = Math.min(Math.max(Number(req.query.limit ?? 25) || 25, 1), 1000);
  const all = world.templates.get(wabaId) ?? [];
  const data = all.slice(0, limit).map(asListed);
  const paging = { cursors: { before: 'MAZDZD', after: 'MjQZD' }, ...(all.length > limit ? { next: `https://graph.facebook.com/next?after=MjQZD` } : {}) };
  return ok({ data, paging });
}

function createTemplate(world: GraphWorld, wabaId: string, req: GraphRequest): GraphAnswer {
  const body = isObject(req.json) ? req.json : {};
  const { name, language, category, components } = body;
  if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name))
    return fail({ ...GRAPH_ERRORS.invalidParameter('name must be lowercase letters, digits and underscores'), subcode: 2388042 });
  if (typeof language !== 'string' || typeof category !== 'string' || !Array.isArray(components)) {
    return fail(GRAPH_ERRORS.invalidParameter('language, category and components are required'));
  }
  if ((world.templates.get(wabaId) ?? []).some((t) => t.name === name && t.language === language)) return fail(GRAPH_ERRORS.templateExists);
  const created = world.addTemplate(wabaId, { name, language, category: category.toUpperCase(), status: 'PENDING', components: components.filter(isObject) });
  return ok({ id: created.id, status: created.status, category: created.category });
}

function deleteTemplate(world: GraphWorld, wabaId: string, req: GraphRequest): GraphAnswer {
  const list = world.templates.get(wabaId) ?? [];
  const keep = list.filter((t) => !(t.name === req.query.name && (!req.query.hsm_id || t.id === req.query.hsm_id)));
  if (keep.length === list.length)
    return fail({
      code: 100,
      subcode: 2593002,
      message: 'Invalid parameter',
      title: 'Message template not found',
      userMessage: 'The message template could not be found.',
    });
  world.templates.set(wabaId, keep);
  return ok({ success: true });
}
