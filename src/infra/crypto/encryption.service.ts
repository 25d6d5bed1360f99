import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { derivePurposeKey, sealWithKey, unsealWithKey } from './sealing.js';

/**
 * AES-256-GCM encryption at rest for provider tokens, webhook secrets and channel auth state.
 * Keys are derived from ENCRYPTION_KEY per purpose (HKDF), so one leaked derived key exposes one
 * kind of secret only. Output: `v1.<iv>.<tag>.<ciphertext>` in base64url (`sealing.ts`).
 */
@Injectable()
export class EncryptionService {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly config: AppConfig) {}

  /** A 32-byte key for `purpose` (e.g. 'cookie-signing'), derived from the root secret. */
  deriveKey(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = derivePurposeKey(this.config.encryptionKey, purpose);
      this.keys.set(purpose, key);
    }
    return key;
  }

  encrypt(plaintext: string | Buffer, purpose: string): string {
    return sealWithKey(this.deriveKey(purpose), plaintext);
  }

  decrypt(sealed: string, purpose: string): Buffer {
    return unsealWithKey(this.deriveKey(purpose), sealed);
  }

  decryptString(sealed: string, purpose: string): string {
    return this.decrypt(sealed, purpose).toString('utf8');
  }
}
