// WhatsApp's media encryption, written from the scheme (not with Baileys' own code, so the
// simulator checks Baileys instead of agreeing with it): a random 32-byte media key expands
// (HKDF-SHA256, empty salt, a per-kind info string) into IV, AES-256-CBC key and HMAC key; the
// uploaded file is the ciphertext followed by the first 10 bytes of HMAC-SHA256(iv ‖ ciphertext).
// The message carries the key, the SHA-256 of the plain file and of the uploaded file.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export type MediaKind = 'image' | 'document' | 'video' | 'audio' | 'sticker' | 'history';

// As WhatsApp names them (Baileys' MEDIA_HKDF_KEY_MAPPING agrees): a voice note (`ptt`) shares the
// Audio keys, a sticker the Image keys, a GIF and a round video note (`ptv`) the Video keys.
const INFO: Record<MediaKind, string> = {
  image: 'WhatsApp Image Keys',
  sticker: 'WhatsApp Image Keys',
  video: 'WhatsApp Video Keys',
  audio: 'WhatsApp Audio Keys',
  document: 'WhatsApp Document Keys',
  history: 'WhatsApp History Keys',
};

const MAC_LENGTH = 10;

export interface EncryptedMedia {
  mediaKey: Buffer;
  /** What the media host stores: ciphertext ‖ MAC. */
  enc: Buffer;
  fileSha256: Buffer;
  fileEncSha256: Buffer;
  fileLength: number;
}

export const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

function keys(mediaKey: Uint8Array, kind: MediaKind): { iv: Buffer; cipherKey: Buffer; macKey: Buffer } {
  const expanded = Buffer.from(hkdfSync('sha256', mediaKey, Buffer.alloc(0), INFO[kind], 112));
  return { iv: expanded.subarray(0, 16), cipherKey: expanded.subarray(16, 48), macKey: expanded.subarray(48, 80) };
}

export function encryptMedia(plain: Buffer, kind: MediaKind): EncryptedMedia {
  const mediaKey = randomBytes(32);
  const { iv, cipherKey, macKey } = keys(mediaKey, kind);
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  const enc = Buffer.concat([ciphertext, mac]);
  return { mediaKey, enc, fileSha256: sha256(plain), fileEncSha256: sha256(enc), fileLength: plain.length };
}

/** Decrypts an uploaded file, checking what WhatsApp checks: both hashes (when given) and the MAC. */
export function decryptMedia(
  enc: Buffer,
  mediaKey: Uint8Array,
  kind: MediaKind,
  expected: { fileSha256?: Uint8Array | null; fileEncSha256?: Uint8Array | null } = {},
): Buffer {
  if (expected.fileEncSha256?.length && !sha256(enc).equals(Buffer.from(expected.fileEncSha256))) {
    throw new Error('the uploaded file does not match fileEncSha256');
  }
  const { iv, cipherKey, macKey } = keys(mediaKey, kind);
  const ciphertext = enc.subarray(0, enc.length - MAC_LENGTH);
  const mac = enc.subarray(enc.length - MAC_LENGTH);
  const expectedMac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  if (mac.length !== MAC_LENGTH || !timingSafeEqual(mac, expectedMac)) throw new Error('media MAC mismatch (wrong key or corrupted file)');
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv);
  const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  if (expected.fileSha256?.length && !sha256(plain).equals(Buffer.from(expected.fileSha256))) {
    throw new Error('the decrypted file does not match fileSha256');
  }
  return plain;
}
