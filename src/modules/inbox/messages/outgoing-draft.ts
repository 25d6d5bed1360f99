import { ApiError } from '../../../infra/http/api-error.js';
import type { OutgoingMessage, OutgoingTemplate } from '../../channels/channel-gateway.port.js';
import { isUuid } from '../dto/id.pipe.js';
import { assertNever } from '../message-kinds.js';
import { BODY_CONTENT_DIFFER, MAX_TEMPLATE_PARAMETER_LENGTH, MAX_TEMPLATE_PARAMETERS, type SendMessageDto } from '../dto/message.dto.js';
import { interactiveDraft } from './interactive-draft.js';
import { mediaDraft } from './media-draft.js';
import { parseTemplateExtras, type TemplateExtras } from './template-extras.js';
import type { NewOutboundMessage } from './message.repository.js';
import type { RenderedTemplate } from './message-templates.js';
import { contactsDraft, locationDraft } from './structured-draft.js';

/** A validated send request: the row to store and what to hand to the channel. */
export interface OutgoingDraft {
  row: NewOutboundMessage;
  outgoing: DistributiveOmit<OutgoingMessage, 'messageId'>;
  /** A provider's template: sent by name where the channel can (`sendTemplate`), else as `outgoing`, its text. */
  template?: Omit<OutgoingTemplate, 'messageId'>;
  /** `reply_to`: our id of the message this one replies to, resolved (404) once the conversation is known. */
  replyToId?: string | null;
}

/** What a `type: "template"` send asks for, checked before any lookup. */
export interface TemplateRequest {
  templateId: string;
  parameters: string[];
  replyToId: string | null;
  /** Header and button parameters (a Cloud API template's), or null (template-extras.ts). */
  extras: TemplateExtras | null;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export const INVALID_REPLY_TO = 'invalid reply_to id';

/**
 * Turns a send body into a draft, or a 400 with a text the client can act on. Runs before any
 * lookup, as the check order of docs/api.md puts input validation before the resource. Templates
 * (`templateDraft`, once the template is looked up) and reactions (reaction-request.ts) take
 * their own way.
 */
export function buildDraft(dto: SendMessageDto, now = new Date()): OutgoingDraft {
  const type = dto.type ?? 'text';
  const text = messageText(dto);
  const replyToId = parseReplyTo(dto.reply_to);
  const draft = kindDraft(type, dto, text, now);
  return { ...draft, replyToId };
}

function kindDraft(type: NonNullable<SendMessageDto['type']>, dto: SendMessageDto, text: string | undefined, now: Date): OutgoingDraft {
  switch (type) {
    case 'template':
      throw new Error('a template send is drafted by templateDraft');
    case 'reaction':
      throw new Error('a reaction is no message: parseReaction reads it');
    case 'text':
      return textDraft(text, now);
    case 'location':
      return locationDraft(dto.location, now);
    case 'contacts':
      return contactsDraft(dto.contacts, now);
    case 'interactive':
      return interactiveDraft(dto, now);
    case 'image':
    case 'document':
    case 'video':
    case 'audio':
    case 'voice':
    case 'sticker':
      return mediaDraft(type, dto, now);
    default:
      return assertNever(type, 'send type');
  }
}

/** `reply_to`: our id of a message (a UUID), lowercased; null when not given. */
export function parseReplyTo(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isUuid(value)) throw ApiError.badRequest(INVALID_REPLY_TO);
  return value.toLowerCase();
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
  return { templateId: dto.template_id.toLowerCase(), parameters, replyToId: parseReplyTo(dto.reply_to), extras: parseTemplateExtras(dto) };
}

/** What template parameters must be, wherever they are given (sends, automation actions). */
export const TEMPLATE_PARAMETERS_RULE = `must be an array of at most ${MAX_TEMPLATE_PARAMETERS} strings of at most ${MAX_TEMPLATE_PARAMETER_LENGTH} characters`;

export const areTemplateParameters = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length <= MAX_TEMPLATE_PARAMETERS &&
  value.every((item) => typeof item === 'string' && item.length <= MAX_TEMPLATE_PARAMETER_LENGTH);

/** A filled-in template is stored as its text; a provider's template also travels by name. */
export function templateDraft(rendered: RenderedTemplate, now = new Date(), replyToId: string | null = null): OutgoingDraft {
  const draft = { ...textDraft(rendered.body, now), replyToId };
  return rendered.provider ? { ...draft, template: { ...rendered.provider, body: draft.row.content } } : draft;
}
