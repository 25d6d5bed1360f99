import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

const VERSION = 'v1';

/**
 * AES-256-GCM encryption at rest for provider tokens, webhook secrets and channel auth state.
 * Keys are derived from ENCRYPTION_KEY per purpose (HKDF), so one leaked derived key exposes one
 * kind of secret only. Output: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
@Injectable()
export class EncryptionService {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly config: AppConfig) {}

  /** A 32-byte key for `purpose` (e.g. 'cookie-signing'), derived from the root secret. */
  deriveKey(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.config.encryptionKey, Buffer.alloc(0), `inbox:${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }

  encrypt(plaintext: string | Buffer, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.deriveKey(purpose), iv);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(sealed: string, purpose: string): Buffer {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.deriveKey(purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }

  decryptString(sealed: string, purpose: string): string {
    return this.decrypt(sealed, purpose).toString('utf8');
  }
}
