import { BufferJSON, type proto, toNumber } from '@whiskeysockets/baileys';
import { MEDIA_KINDS, MESSAGE_KINDS, type MediaKind } from '../../../../inbox/message-kinds.js';
import type { ScanMedia, ScanMediaRef } from '../../scan-driver.port.js';
import type { BodyMappers, MessageBody } from './baileys-content.types.js';

/** What `downloadMedia` needs to fetch and decrypt a file later, from any process. */
export interface BaileysMediaRef {
  kind: MediaKind;
  mediaKey: Uint8Array | string | null | undefined;
  directPath: string | null | undefined;
  url: string | null | undefined;
}

type MediaContent = proto.Message.IImageMessage | proto.Message.IDocumentMessage;

function media(kind: MediaKind, content: MediaContent, fileName: string): ScanMedia {
  const ref: BaileysMediaRef = { kind, mediaKey: content.mediaKey, directPath: content.directPath, url: content.url };
  return {
    mimeType: content.mimetype ?? MESSAGE_KINDS[kind].media.defaultMimeType,
    fileName,
    fileSize: toNumber(content.fileLength),
    ref: JSON.stringify(ref, BufferJSON.replacer),
  };
}

/** An image, with its caption as the text; WhatsApp keeps no file name for images. */
export function imageBody(message: proto.IMessage): MessageBody {
  const image = message.imageMessage!;
  return { type: 'image', content: image.caption ?? '', media: media('image', image, '') };
}

/** A document (a caption arrives wrapped in `documentWithCaptionMessage`, which is unwrapped before). */
export function documentBody(message: proto.IMessage): MessageBody {
  const document = message.documentMessage!;
  return { type: 'document', content: document.caption ?? '', media: media('document', document, document.fileName ?? document.title ?? '') };
}

/** The inbox has no video kind: a caption is still what the person wrote, kept as text. */
export function videoBody(message: proto.IMessage): MessageBody {
  const caption = message.videoMessage?.caption ?? '';
  return caption ? { type: 'text', content: caption, media: null } : { type: 'other', content: '', media: null };
}

/** The media family: content with a file on WhatsApp's media hosts. */
export const MEDIA_CONTENT: BodyMappers = {
  imageMessage: imageBody,
  documentMessage: documentBody,
  videoMessage: videoBody,
};

/** A stored media reference back, or an error when it is not one this driver wrote. */
export function parseMediaRef(ref: ScanMediaRef): BaileysMediaRef {
  const parsed = JSON.parse(ref, BufferJSON.reviver) as Partial<BaileysMediaRef>;
  if (!(MEDIA_KINDS as readonly unknown[]).includes(parsed.kind) || !parsed.mediaKey || !(parsed.directPath || parsed.url)) {
    throw new Error('unrecognised media reference');
  }
  return parsed as BaileysMediaRef;
}
