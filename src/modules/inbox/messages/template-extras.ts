import { ApiError } from '../../../infra/http/api-error.js';
import type { OutgoingMedia, OutgoingTemplate } from '../../channels/channel-gateway.port.js';
import type { SendMessageDto } from '../dto/message.dto.js';
import type { TemplateButtonDto, TemplateHeaderDto } from '../dto/template-extras.dto.js';
import { mediaDraft } from './media-draft.js';
import type { OutgoingDraft } from './outgoing-draft.js';

/** A template send's header and button parameters, ready for the channel. */
export interface TemplateExtras {
  header: NonNullable<OutgoingTemplate['header']> | null;
  buttons: NonNullable<OutgoingTemplate['buttons']>;
}

/** The 400 of header or button parameters for a template that is the workspace's own (sent as a text). */
export const EXTRAS_NEED_PROVIDER = "header and buttons are parameters of a Cloud API template: this template is the workspace's own";

const KB = 1024;
const MB = 1024 * KB;

/**
 * What the Cloud API takes as a template header's file (its media reference; templates with
 * parameters are the Cloud API's): images JPEG or PNG up to 5 MB, videos MP4 or 3GPP up to
 * 16 MB, documents PDF up to 100 MB. The size is checked on uploaded bytes (a url is fetched by
 * the provider, which answers for it).
 */
const HEADER_FILES = {
  image: { types: ['image/jpeg', 'image/png'], bytes: 5 * MB, shown: '5 MB', noun: 'an image header' },
  video: { types: ['video/mp4', 'video/3gpp', 'video/3gp'], bytes: 16 * MB, shown: '16 MB', noun: 'a video header' },
  document: { types: ['application/pdf'], bytes: 100 * MB, shown: '100 MB', noun: 'a document header' },
} as const;

/**
 * A template send's `header` and `buttons`, checked before any lookup: a text header's text, a
 * file header's file (as any file of a send, then the Cloud API's limits), each button index at
 * most once, no blank parameter. Null when the send gives neither.
 */
export function parseTemplateExtras(dto: { header?: TemplateHeaderDto; buttons?: TemplateButtonDto[] }): TemplateExtras | null {
  if (dto.header === undefined && dto.buttons === undefined) return null;
  const header = dto.header ? headerOf(dto.header) : null;
  const buttons = (dto.buttons ?? []).map((button, i) => {
    const parameter = button.parameter.trim();
    if (!parameter) throw ApiError.badRequest(`buttons.${i}.parameter must not be blank`);
    return { index: button.index, subType: button.sub_type, parameter };
  });
  const seen = new Set<number>();
  buttons.forEach((button, i) => {
    if (seen.has(button.index)) throw ApiError.badRequest(`buttons.${i}.index repeats another button's index: give each button's parameter once`);
    seen.add(button.index);
  });
  return { header, buttons };
}

function headerOf(header: TemplateHeaderDto): TemplateExtras['header'] {
  if (header.type === 'text') {
    const text = header.text?.trim() ?? '';
    if (!text) throw ApiError.badRequest('header.text is required for a text header');
    return { type: 'text', text };
  }
  if (!header.media) throw ApiError.badRequest(`header.media is required for ${HEADER_FILES[header.type].noun}`);
  return { type: header.type, media: headerFile(header.type, header.media) };
}

/** The header's file, read as a file send reads one (one of url and data, the kind's own checks), then held to the Cloud API's limits. */
function headerFile(type: 'image' | 'video' | 'document', media: NonNullable<TemplateHeaderDto['media']>): OutgoingMedia {
  let file: OutgoingMedia;
  try {
    const draft = mediaDraft(type, { media } as SendMessageDto);
    if (!('media' in draft.outgoing)) throw new Error('a file draft without its file');
    file = draft.outgoing.media;
  } catch (error) {
    // Its refusals name `media`: here it is the header's.
    if (error instanceof ApiError && error.getStatus() === 400 && error.text.startsWith('media')) throw ApiError.badRequest(`header.${error.text}`);
    throw error;
  }
  const rule = HEADER_FILES[type];
  const given = file.mimeType.split(';')[0]!.trim().toLowerCase();
  if (given && !(rule.types as readonly string[]).includes(given)) {
    throw ApiError.badRequest(`the Cloud API takes ${rule.noun} only as ${rule.types.filter((t) => t !== 'video/3gp').join(', ')} (got ${given})`);
  }
  if (file.data && file.data.length > rule.bytes) throw ApiError.badRequest(`${rule.noun} must be at most ${rule.shown}`);
  return file;
}

/**
 * The draft of a template send with its header and button parameters. Only a provider's
 * template takes them: the workspace's own is sent as its text, which has no header or buttons
 * (400 before anything is stored).
 */
export function withTemplateExtras(draft: OutgoingDraft, extras: TemplateExtras | null): OutgoingDraft {
  if (!extras) return draft;
  if (!draft.template) throw ApiError.badRequest(EXTRAS_NEED_PROVIDER);
  return {
    ...draft,
    template: { ...draft.template, ...(extras.header ? { header: extras.header } : {}), ...(extras.buttons.length ? { buttons: extras.buttons } : {}) },
  };
}
