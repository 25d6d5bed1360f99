import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../infra/redis/redis.module.js';

/**
 * A credential, or a member's standing in a workspace, that stopped being what it was. Requests
 * re-check their credential anyway; this is for what outlives one check: open event streams.
 */
export type AccessRevocation =
  | { kind: 'api_key'; keyId: string }
  | { kind: 'session'; sessionId: string }
  /** Every session of the user (password reset). */
  | { kind: 'user'; userId: string }
  /** Removed from the workspace, or their role changed (what they may see changed with it). */
  | { kind: 'member'; workspaceId: string; userId: string }
  /**
   * The workspace's subscription lapsed (no longer trialing or active): where subscriptions are
   * enforced, every stream of the workspace ends (each replica applies its own
   * SUBSCRIPTIONS_ENFORCED).
   */
  | { kind: 'subscription'; workspaceId: string };

const KINDS = new Set(['api_key', 'session', 'user', 'member', 'subscription']);

/**
 * Publishes revocations on one Redis pub/sub channel every replica listens to (the live event
 * fan-out). Publishing never fails the caller: the change is committed already, and each stream
 * re-checks its credential periodically, so a lost signal only delays the end of a stream.
 */
@Injectable()
export class AccessRevocations {
  private readonly logger = new Logger(AccessRevocations.name);
  readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.channel = keys.key('access-revoked');
  }

  async publish(revocation: AccessRevocation): Promise<void> {
    try {
      await this.redis.publish(this.channel, JSON.stringify(revocation));
    } catch (error) {
      this.logger.warn({ err: error, kind: revocation.kind }, 'could not publish an access revocation; streams end at their next recheck');
    }
  }

  /** The revocation in a channel message, or null for anything else. */
  decode(message: string): AccessRevocation | null {
    try {
      const parsed = JSON.parse(message) as { kind?: unknown };
      return typeof parsed === 'object' && parsed !== null && KINDS.has(String(parsed.kind)) ? (parsed as AccessRevocation) : null;
    } catch {
      return null;
    }
  }
}
