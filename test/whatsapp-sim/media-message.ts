// The media message a contact sends: the file encrypted with a fresh media key and put on the
// media host, the message pointing at it (`url`, `directPath`) with the key and hashes, of each
// kind WhatsApp has (image, document, video, audio or voice note, sticker), optionally inside the
// wrapper WhatsApp puts around view-once and disappearing messages.
import type { proto } from '@whiskeysockets/baileys';
import { encryptMedia, type MediaKind } from './media-crypto.js';
import type { MediaHost } from './media-host.js';

/** A 1×1 PNG: what an image from a contact holds unless the test gives its own bytes. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==', 'base64');
/** A 1×1 lossless WebP: a sticker's default. */
const TINY_WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** The kinds of file a contact sends (a voice note is audio recorded push-to-talk: `ptt`). */
export type SimMediaKind = Exclude<MediaKind, 'history'>;

/** The wrappers a contact's client puts around a message: view once (three generations), a disappearing chat's. */
export type SimWrapper = 'viewOnce' | 'viewOnceV2' | 'viewOnceV2Extension' | 'ephemeral';

export interface MediaInput {
  kind: SimMediaKind;
  /** Default: what WhatsApp's clients send for the kind (a voice note: `audio/ogg; codecs=opus`). */
  mimetype?: string;
  caption?: string;
  fileName?: string;
  /** The file; default a small file of the kind (a 1×1 PNG or WebP, a text, bytes headed like MP4 or Ogg). */
  data?: Buffer;
  /** Audio recorded push-to-talk: a voice note. */
  ptt?: boolean;
  /** Playing time of audio and video. */
  seconds?: number;
  /** A video played as a loop (a GIF). */
  gifPlayback?: boolean;
  /** A reply, mentions: the message's `contextInfo`. */
  contextInfo?: proto.IContextInfo;
  wrap?: SimWrapper;
  /**
   * Where the message says the file is, instead of the media host's copy: a contact chooses its
   * message's `url` and `directPath` (Baileys fetches `https://<host of url><directPath>`, or `url`
   * when there is no `directPath`).
   */
  at?: { url: string; directPath: string | null };
}

const DEFAULT_MIMETYPE: Record<SimMediaKind, string> = {
  image: 'image/jpeg',
  document: 'application/octet-stream',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  sticker: 'image/webp',
};

function defaultData(input: MediaInput): Buffer {
  switch (input.kind) {
    case 'image':
      return TINY_PNG;
    case 'sticker':
      return TINY_WEBP;
    case 'document':
      return Buffer.from('a document from the simulator\n');
    case 'video':
      return Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.from('a video from the simulator')]);
    case 'audio':
      return Buffer.concat([Buffer.from('OggS'), Buffer.from(input.ptt ? 'a voice note from the simulator' : 'an audio file from the simulator')]);
  }
}

/** The `<enc mediatype>` WhatsApp sets on the stanza (and Baileys' media type of the file). */
export function mediaTypeOf(input: Pick<MediaInput, 'kind' | 'ptt' | 'gifPlayback'>): string {
  if (input.kind === 'audio' && input.ptt) return 'ptt';
  if (input.kind === 'video' && input.gifPlayback) return 'gif';
  return input.kind;
}

/** The message wrapped as a contact's client wraps it. */
export function wrapped(message: proto.IMessage, wrap: SimWrapper | undefined): proto.IMessage {
  switch (wrap) {
    case undefined:
      return message;
    case 'viewOnce':
      return { viewOnceMessage: { message } };
    case 'viewOnceV2':
      return { viewOnceMessageV2: { message } };
    case 'viewOnceV2Extension':
      return { viewOnceMessageV2Extension: { message } };
    case 'ephemeral':
      return { ephemeralMessage: { message } };
  }
}

export function mediaMessage(host: MediaHost, input: MediaInput): proto.IMessage {
  const data = input.data ?? defaultData(input);
  // The kind's keys (media-crypto.ts): a voice note's are the Audio keys, a sticker's the Image keys.
  const encrypted = encryptMedia(data, input.kind);
  const published = host.publish(encrypted.enc);
  const { url, directPath } = input.at ?? published;
  const viewOnce = input.wrap?.startsWith('viewOnce') ? { viewOnce: true } : {};
  const common = {
    url,
    ...(directPath !== null ? { directPath } : {}),
    mimetype: input.mimetype ?? (input.kind === 'audio' && input.ptt ? 'audio/ogg; codecs=opus' : DEFAULT_MIMETYPE[input.kind]),
    mediaKey: encrypted.mediaKey,
    fileSha256: encrypted.fileSha256,
    fileEncSha256: encrypted.fileEncSha256,
    fileLength: encrypted.fileLength,
    mediaKeyTimestamp: Math.floor(Date.now() / 1000),
    ...(input.contextInfo ? { contextInfo: input.contextInfo } : {}),
  };
  const caption = input.caption ? { caption: input.caption } : {};
  const seconds = input.seconds !== undefined ? { seconds: input.seconds } : {};
  const content: proto.IMessage = ((): proto.IMessage => {
    switch (input.kind) {
      case 'image':
        return { imageMessage: { ...common, ...caption, ...viewOnce, width: 64, height: 64 } };
      case 'document':
        return { documentMessage: { ...common, ...caption, fileName: input.fileName ?? 'file.bin' } };
      case 'video':
        return { videoMessage: { ...common, ...caption, ...seconds, ...viewOnce, ...(input.gifPlayback ? { gifPlayback: true } : {}), width: 64, height: 64 } };
      case 'audio':
        return { audioMessage: { ...common, ...seconds, ...viewOnce, ptt: input.ptt === true } };
      case 'sticker':
        return { stickerMessage: { ...common, width: 64, height: 64, isAnimated: false } };
    }
  })();
  return wrapped(content, input.wrap);
}
