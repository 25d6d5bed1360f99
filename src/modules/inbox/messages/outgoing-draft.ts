import { ApiError } from '../../../infra/http/api-error.js';
import type { OutgoingMessage, OutgoingTemplate } from '../../channels/channel-gateway.port.js';
import { isUuid } from '../dto/id.pipe.js';
import { mediaRuleOf } from '../message-kinds.js';
import { BODY_CONTENT_DIFFER, MAX_TEMPLATE_PARAMETER_LENGTH, MAX_TEMPLATE_PARAMETERS, type SendMessageDto } from '../dto/message.dto.js';
import type { NewOutboundMessage } from './message.repository.js';
import type { RenderedTemplate } from './message-templates.js';

/** A validated send request: the row to store and what to hand to the channel. */
export interface OutgoingDraft {
  row: NewOutboundMessage;
  outgoing: DistributiveOmit<OutgoingMessage, 'messageId'>;
  /** A provider's template: sent by name where the channel can (`sendTemplate`), else as `outgoing`, its text. */
  template?: Omit<OutgoingTemplate, 'messageId'>;
}

/** What a `type: "template"` send asks for, checked before any lookup. */
export interface TemplateRequest {
  templateId: string;
  parameters: string[];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Turns a send body into a draft, or a 400 with a text the client can act on. Runs before any
 * lookup, as the check order of docs/api.md puts input validation before the resource.
 */
export function buildDraft(dto: SendMessageDto, now = new Date()): OutgoingDraft {
  const type = dto.type ?? 'text';
  if (type === 'template') throw new Error('a template send is drafted by templateDraft');
  const text = messageText(dto);
  if (type === 'text') return textDraft(text, now);

  const media = dto.media;
  if (!media) throw ApiError.badRequest('media is required for image and document messages');
  const url = media.url?.trim() || undefined;
  const base64 = media.data_base64?.replace(/\s+/g, '') || undefined;
  if (Boolean(url) === Boolean(base64)) throw ApiError.badRequest('media needs exactly one of url and data_base64');
  if (url && !/^https?:\/\/\S+$/i.test(url)) throw ApiError.badRequest('media url must be an http or https address');
  let data: Buffer | undefined;
  if (base64) {
    if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw ApiError.badRequest('media data_base64 is not valid base64');
    data = Buffer.from(base64, 'base64');
    if (data.length === 0) throw ApiError.badRequest('media data_base64 is empty');
  }
  const mimeType = media.mime_type?.trim() ?? '';
  if (data && !mimeType) throw ApiError.badRequest('media mime_type is required with data_base64');
  const rule = mediaRuleOf(type);
  if (rule.mimeFamily && mimeType && !mimeType.startsWith(rule.mimeFamily.prefix))
    throw ApiError.badRequest(`${rule.noun} needs ${rule.mimeFamily.named} mime_type`);
  const fileName = media.file_name?.trim() || (rule.fileName?.fallback ?? '');
  const caption = dto.caption?.trim() ?? '';
  return {
    row: {
      type,
      content: caption,
      // Uploaded bytes have no address until the media module stores them; a url is kept as given.
      mediaUrl: url ?? '',
      mimeType,
      fileName,
      fileSize: data?.length ?? 0,
      timestamp: now,
    },
    outgoing: { type, caption, media: { url, data, mimeType, fileName } },
  };
}

/**
 * The text of a send: `body`, or `content`, its alias (named like the message's field); both
 * only with the same text. Undefined when neither is given (`null` never gets here: validation
 * refuses it, 400 `body must be a string`).
 */
export function messageText({ body, content }: { body?: string; content?: string }): string | undefined {
  if (body !== undefined && content !== undefined && body !== content) throw ApiError.badRequest(BODY_CONTENT_DIFFER);
  return body ?? content;
}

/** A text message; a body that is empty once trimmed is refused. */
export function textDraft(text: string | undefined, now = new Date()): OutgoingDraft {
  const body = text?.trim() ?? '';
  if (!body) throw ApiError.badRequest('message body is required');
  return {
    row: { type: 'text', content: body, mediaUrl: '', mimeType: '', fileName: '', fileSize: 0, timestamp: now },
    outgoing: { type: 'text', body },
  };
}

export function parseTemplateRequest(dto: SendMessageDto): TemplateRequest {
  // A template has no text of its own; conflicting aliases are refused all the same.
  messageText(dto);
  if (dto.template_id === undefined || dto.template_id === '') throw ApiError.badRequest('template_id is required for template messages');
  if (!isUuid(dto.template_id)) throw ApiError.badRequest('invalid template id');
  const parameters = dto.parameters ?? [];
  if (!areTemplateParameters(parameters)) throw ApiError.badRequest(`parameters ${TEMPLATE_PARAMETERS_RULE}`);
  return { templateId: dto.template_id.toLowerCase(), parameters };
}

/** What template parameters must be, wherever they are given (sends, automation actions). */
export const TEMPLATE_PARAMETERS_RULE = `must be an array of at most ${MAX_TEMPLATE_PARAMETERS} strings of at most ${MAX_TEMPLATE_PARAMETER_LENGTH} characters`;

export const areTemplateParameters = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length <= MAX_TEMPLATE_PARAMETERS &&
  value.every((item) => typeof item === 'string' && item.length <= MAX_TEMPLATE_PARAMETER_LENGTH);

/** A filled-in template is stored as its text; a provider's template also travels by name. */
export function templateDraft(rendered: RenderedTemplate, now = new Date()): OutgoingDraft {
  const draft = textDraft(rendered.body, now);
  return rendered.provider ? { ...draft, template: { ...rendered.provider, body: draft.row.content } } : draft;
}
