import { ApiError } from '../../../infra/http/api-error.js';
import { readMp4DurationS, readOggOpus, readWebp } from '../../../infra/media/media-formats.js';
import { sizeText, STICKER_FORMAT, VOICE_FORMAT, VOICE_MIME_PATTERN } from '../dto/message-request.schema.js';
import type { SendMessageDto } from '../dto/message.dto.js';
import { type MediaKind, mediaRuleOf } from '../message-kinds.js';
import type { OutgoingDraft } from './outgoing-draft.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const VOICE_MIME = new RegExp(VOICE_MIME_PATTERN);
/** The mime type WhatsApp plays a voice note by (its own clients send exactly this). */
export const VOICE_MIME_TYPE = 'audio/ogg; codecs=opus';
const STICKER_MIME_TYPE = 'image/webp';

/** What the inbox reads from a file it holds: the type to store and send, and its playing time. */
export interface InspectedMedia {
  mimeType: string;
  durationS: number;
}

/**
 * A file send (`image`, `document`, `video`, `audio`, `voice`, `sticker`): exactly one of
 * `media.url` and `media.data_base64`, a mime type of the kind's family, the kind's size limit and
 * format (a voice note Ogg/Opus, a sticker WebP) checked on the bytes when they are here (a url's
 * bytes are checked once the channel fetched them: `inspectMedia`).
 */
export function mediaDraft(type: MediaKind, dto: SendMessageDto, now = new Date()): OutgoingDraft {
  const media = dto.media;
  if (!media) throw ApiError.badRequest(`media is required for ${type} messages`);
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
  const given = media.mime_type?.trim() ?? '';
  if (data && !given) throw ApiError.badRequest('media mime_type is required with data_base64');
  let mimeType = checkMimeType(type, given);
  let durationS = 0;
  if (data) ({ mimeType, durationS } = inspectMedia(type, data, mimeType));
  const rule = mediaRuleOf(type);
  const fileName = media.file_name?.trim() || (rule.fileName?.fallback ?? '');
  // Only a video, an image and a document show a caption; the other kinds have none to send.
  const caption = type === 'image' || type === 'video' || type === 'document' ? (dto.caption?.trim() ?? '') : '';
  return {
    row: {
      type,
      content: caption,
      // Uploaded bytes have no address until the media module stores them; a url is kept as given.
      mediaUrl: url ?? '',
      mimeType,
      fileName,
      fileSize: data?.length ?? 0,
      durationS,
      timestamp: now,
    },
    outgoing: { type, caption, media: { url, data, mimeType, fileName }, durationS },
  };
}

/** The mime type a send names, checked against its kind ('' when it names none: the file's host or the kind's default decides). */
function checkMimeType(type: MediaKind, mimeType: string): string {
  if (!mimeType) return type === 'voice' ? VOICE_MIME_TYPE : type === 'sticker' ? STICKER_MIME_TYPE : '';
  if (type === 'voice') {
    if (!VOICE_MIME.test(mimeType)) throw ApiError.badRequest(VOICE_FORMAT);
    return VOICE_MIME_TYPE;
  }
  if (type === 'sticker') {
    if (mimeType.toLowerCase() !== STICKER_MIME_TYPE) throw ApiError.badRequest(STICKER_FORMAT);
    return STICKER_MIME_TYPE;
  }
  const rule = mediaRuleOf(type);
  if (rule.mimeFamily && !mimeType.toLowerCase().startsWith(rule.mimeFamily.prefix))
    throw ApiError.badRequest(`${rule.noun} needs ${rule.mimeFamily.named} mime_type`);
  return mimeType;
}

/**
 * The checks of a file's bytes, for uploaded ones and for those a channel fetched from a url
 * before anything is stored: the kind's size limit (WhatsApp's), a voice note's Ogg/Opus and a
 * sticker's WebP, and the playing time of an Ogg/Opus or MP4 file. 400 for a file that fails.
 */
export function inspectMedia(type: MediaKind, data: Buffer, mimeType: string): InspectedMedia {
  const rule = mediaRuleOf(type);
  if (data.length > rule.sendFetchLimit) {
    throw ApiError.badRequest(`media is larger than ${rule.sendFetchLimit} bytes (${sizeText(rule.sendFetchLimit)}, the limit for ${rule.noun})`);
  }
  switch (type) {
    case 'voice': {
      const ogg = readOggOpus(data);
      if (!ogg) throw ApiError.badRequest(VOICE_FORMAT);
      return { mimeType: VOICE_MIME_TYPE, durationS: ogg.durationS };
    }
    case 'sticker':
      if (!readWebp(data)) throw ApiError.badRequest(STICKER_FORMAT);
      return { mimeType: STICKER_MIME_TYPE, durationS: 0 };
    case 'audio':
      return { mimeType, durationS: readOggOpus(data)?.durationS ?? 0 };
    case 'video':
      return { mimeType, durationS: readMp4DurationS(data) };
    case 'image':
    case 'document':
      return { mimeType, durationS: 0 };
  }
}
