import { Injectable, type OnModuleInit } from '@nestjs/common';
import { hashPassword, randomToken, verifyPassword } from '../../../infra/crypto/hashing.js';

/**
 * Password hashing for sign-in (scrypt, see infra/crypto/hashing.ts), as a provider so the rule
 * "every failed login costs one scrypt verification" can be checked by counting calls.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash: string | undefined;

  /**
   * Hashes a random password at boot: verified against when there is no usable stored hash, so an
   * unknown email costs the same scrypt work as a wrong password. Computed here rather than on the
   * first unknown-email login, which would otherwise be the one slow (telling) login.
   */
  async onModuleInit(): Promise<void> {
    this.dummyHash = await this.hash(randomToken(16));
  }

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  verify(password: string, storedHash: string): Promise<boolean> {
    return verifyPassword(password, storedHash);
  }

  /**
   * Checks `password` against `storedHash`, or against the dummy hash when there is none (unknown
   * email, Google-only account): one scrypt verification either way, false without a stored hash.
   */
  async check(password: string, storedHash: string | null | undefined): Promise<boolean> {
    if (!this.dummyHash) throw new Error('PasswordHasher used before the module was initialised');
    // `||`: an empty stored hash would make verifyPassword return early, without scrypt.
    const valid = await this.verify(password, storedHash || this.dummyHash);
    return valid && !!storedHash;
  }
}
