import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';

/** A one-time link as stored: which workspace and ceremony it opens, until when, whether it was used. */
export interface PasskeyLink {
  workspaceId: string;
  ceremonyId: string;
  expiresAt: number;
  used: boolean;
}

export type LinkLookup = { found: false } | { found: true; link: PasskeyLink; current: boolean };

/**
 * The passkey extension's one-time links in Redis (docs/passkey.md#routes). Only a SHA-256 of
 * each token is kept; a workspace's newest link is its only current one (a new link invalidates
 * the previous), and the keys expire a little after the links do.
 */
@Injectable()
export class PasskeyLinksStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** A new token for `ceremonyId`; the workspace's earlier links stop working. */
  async issue(workspaceId: string, ceremonyId: string, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const hash = hashOf(token);
    const expiresAt = Date.now() + ttlMs;
    const link: Omit<PasskeyLink, 'used'> = { workspaceId, ceremonyId, expiresAt };
    // Kept past its expiry for a while, so an expired link says "expired", not "invalid".
    const keepMs = ttlMs + 3_600_000;
    await this.redis.multi().set(this.linkKey(hash), JSON.stringify(link), 'PX', keepMs).set(this.currentKey(workspaceId), hash, 'PX', keepMs).exec();
    return { token, expiresAt: new Date(expiresAt) };
  }

  async find(token: string): Promise<LinkLookup> {
    const hash = hashOf(token);
    const [raw, used] = await this.redis.mget(this.linkKey(hash), this.usedKey(hash));
    if (!raw) return { found: false };
    const link = { ...(JSON.parse(raw) as PasskeyLink), used: used === '1' };
    const current = (await this.redis.get(this.currentKey(link.workspaceId))) === hash;
    return { found: true, link, current };
  }

  /** Marks the link used; false when it already was (two posts racing: one wins). */
  async use(token: string): Promise<boolean> {
    const hash = hashOf(token);
    const claimed = await this.redis.set(this.usedKey(hash), '1', 'PX', 3_600_000, 'NX');
    return claimed === 'OK';
  }

  /** Gives a claimed link back (WhatsApp never saw the assertion: it was refused before). */
  async release(token: string): Promise<void> {
    await this.redis.del(this.usedKey(hashOf(token)));
  }

  private linkKey(hash: string): string {
    return this.keys.key('chat', 'passkey-link', hash);
  }

  private usedKey(hash: string): string {
    return this.keys.key('chat', 'passkey-link-used', hash);
  }

  private currentKey(workspaceId: string): string {
    return this.keys.key('chat', 'passkey-current', workspaceId);
  }
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');
