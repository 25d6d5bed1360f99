import { BufferJSON, type MediaType, type proto, toNumber } from '@whiskeysockets/baileys';
import { MESSAGE_KINDS, type MediaKind } from '../../../../inbox/message-kinds.js';
import type { ScanMedia, ScanMediaRef } from '../../scan-driver.port.js';
import type { BodyMappers, MessageBody } from './baileys-content.types.js';

/**
 * The Baileys media types a stored reference may name: what `downloadContentFromMessage` derives
 * the file's keys from (MEDIA_HKDF_KEY_MAPPING: a voice note's `ptt` and `audio` share the Audio
 * key, a sticker uses the Image key). Not the inbox's kind: a voice note is `voice` there.
 */
export const DOWNLOADABLE_MEDIA = ['image', 'document', 'video', 'audio', 'ptt', 'sticker'] as const satisfies readonly MediaType[];
export type DownloadableMedia = (typeof DOWNLOADABLE_MEDIA)[number];

/** What `downloadMedia` needs to fetch and decrypt a file later, from any process. */
export interface BaileysMediaRef {
  kind: DownloadableMedia;
  mediaKey: Uint8Array | string | null | undefined;
  directPath: string | null | undefined;
  url: string | null | undefined;
}

/** The fields every media content type shares (image, video, audio, sticker, document). */
interface MediaContent {
  mimetype?: string | null;
  /** A uint64: a Long off the wire. */
  fileLength?: Parameters<typeof toNumber>[0];
  mediaKey?: Uint8Array | null;
  directPath?: string | null;
  url?: string | null;
}

function media(kind: MediaKind, downloadAs: DownloadableMedia, content: MediaContent, fileName = ''): ScanMedia {
  const ref: BaileysMediaRef = { kind: downloadAs, mediaKey: content.mediaKey, directPath: content.directPath, url: content.url };
  return {
    mimeType: content.mimetype || MESSAGE_KINDS[kind].media.defaultMimeType,
    fileName,
    fileSize: toNumber(content.fileLength),
    ref: JSON.stringify(ref, BufferJSON.replacer),
  };
}

const seconds = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? value : 0);

/** An image, with its caption as the text; WhatsApp keeps no file name for images. */
export function imageBody(message: proto.IMessage): MessageBody {
  const image = message.imageMessage!;
  return { type: 'image', content: image.caption ?? '', media: media('image', 'image', image) };
}

/** A document (a caption arrives wrapped in `documentWithCaptionMessage`, which is unwrapped before). */
export function documentBody(message: proto.IMessage): MessageBody {
  const document = message.documentMessage!;
  return { type: 'document', content: document.caption ?? '', media: media('document', 'document', document, document.fileName ?? document.title ?? '') };
}

/** A video: a GIF (`gifPlayback`) and a round video note (`ptvMessage`) are videos too. */
function video(content: proto.Message.IVideoMessage): MessageBody {
  return { type: 'video', content: content.caption ?? '', media: media('video', 'video', content), durationS: seconds(content.seconds) };
}

/** Audio: a voice note when recorded push-to-talk (`ptt`), an audio file otherwise. */
export function audioBody(message: proto.IMessage): MessageBody {
  const audio = message.audioMessage!;
  const kind = audio.ptt ? 'voice' : 'audio';
  return { type: kind, content: '', media: media(kind, audio.ptt ? 'ptt' : 'audio', audio), durationS: seconds(audio.seconds) };
}

const sticker = (content: proto.Message.IStickerMessage): MessageBody => ({ type: 'sticker', content: '', media: media('sticker', 'sticker', content) });

/** The media family: content with a file on WhatsApp's media hosts. */
export const MEDIA_CONTENT: BodyMappers = {
  imageMessage: imageBody,
  documentMessage: documentBody,
  videoMessage: (message) => video(message.videoMessage!),
  ptvMessage: (message) => video(message.ptvMessage!),
  audioMessage: audioBody,
  stickerMessage: (message) => sticker(message.stickerMessage!),
  // An animated (Lottie) sticker: the sticker inside a future-proof wrapper Baileys leaves on.
  lottieStickerMessage: (message) => sticker(message.lottieStickerMessage?.message?.stickerMessage ?? {}),
};

/** A stored media reference back, or an error when it is not one this driver wrote. */
export function parseMediaRef(ref: ScanMediaRef): BaileysMediaRef {
  const parsed = JSON.parse(ref, BufferJSON.reviver) as Partial<BaileysMediaRef>;
  if (!(DOWNLOADABLE_MEDIA as readonly unknown[]).includes(parsed.kind) || !parsed.mediaKey || !(parsed.directPath || parsed.url)) {
    throw new Error('unrecognised media reference');
  }
  return parsed as BaileysMediaRef;
}
