import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** A 32-byte key for `purpose` (e.g. 'cookie-signing'), derived from the root secret (HKDF-SHA256). */
export function derivePurposeKey(rootKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), `inbox:${purpose}`, 32));
}

/** AES-256-GCM with a purpose key: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function sealWithKey(key: Buffer, plaintext: string | Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function unsealWithKey(key: Buffer, sealed: string): Buffer {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}
