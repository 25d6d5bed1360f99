// The image or document message a contact sends: the file encrypted with a fresh media key and put
// on the media host, the message pointing at it (`url`, `directPath`) with the key and hashes.
import type { proto } from '@whiskeysockets/baileys';
import { encryptMedia } from './media-crypto.js';
import type { MediaHost } from './media-host.js';

/** A 1×1 PNG: what an image from a contact holds unless the test gives its own bytes. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface MediaInput {
  kind: 'image' | 'document';
  mimetype: string;
  caption?: string;
  fileName?: string;
  /** The file; default a 1×1 PNG (image) or a short text (document). */
  data?: Buffer;
  /**
   * Where the message says the file is, instead of the media host's copy: a contact chooses its
   * message's `url` and `directPath` (Baileys fetches `https://<host of url><directPath>`, or `url`
   * when there is no `directPath`).
   */
  at?: { url: string; directPath: string | null };
}

export function mediaMessage(host: MediaHost, input: MediaInput): proto.IMessage {
  const data = input.data ?? (input.kind === 'image' ? TINY_PNG : Buffer.from('a document from the simulator\n'));
  const encrypted = encryptMedia(data, input.kind);
  const published = host.publish(encrypted.enc);
  const { url, directPath } = input.at ?? published;
  const common = {
    url,
    ...(directPath !== null ? { directPath } : {}),
    mimetype: input.mimetype,
    mediaKey: encrypted.mediaKey,
    fileSha256: encrypted.fileSha256,
    fileEncSha256: encrypted.fileEncSha256,
    fileLength: encrypted.fileLength,
    mediaKeyTimestamp: Math.floor(Date.now() / 1000),
    ...(input.caption ? { caption: input.caption } : {}),
  };
  return input.kind === 'image'
    ? { imageMessage: { ...common, width: 64, height: 64 } }
    : { documentMessage: { ...common, fileName: input.fileName ?? 'file.bin' } };
}
