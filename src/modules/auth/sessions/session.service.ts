import { Injectable } from '@nestjs/common';
import { randomToken, sha256Hex } from '../../../infra/crypto/hashing.js';
import type { SessionPrincipal } from '../auth.types.js';
import { AccessRevocations } from '../../events/access-revocations.js';
import { Clock } from '../clock/clock.js';
import { SESSION_TTL_MS } from './session-cookie.js';
import { SessionRepository } from './session.repository.js';

// last_seen_at is informational; writing it on every request would put a write on the hot path.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Cookie sessions. Expiry is decided by the injected `Clock`, not by the database's `now()`, so
 * the 7-day lifetime is one rule in one place and tests can move time instead of sleeping.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly revocations: AccessRevocations,
  ) {}

  /** Starts a session and returns the cookie token (only its hash is stored). */
  async create(userId: string, meta: { ip?: string; userAgent?: string } = {}): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken(32);
    const expiresAt = this.clock.date(SESSION_TTL_MS);
    await this.sessions.create(userId, sha256Hex(token), expiresAt, meta);
    return { token, expiresAt };
  }

  async authenticate(token: string): Promise<SessionPrincipal | null> {
    if (!token || token.length > 128) return null;
    const now = this.clock.date();
    const found = await this.sessions.findActive(sha256Hex(token), now);
    if (!found) return null;
    const { lastSeenAt, ...principal } = found;
    if (!lastSeenAt || now.getTime() - lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.sessions.touch(principal.sessionId, now);
    }
    return principal;
  }

  /** Deletes the session; its open event streams end with it (every replica). */
  async revoke(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
    await this.revocations.publish({ kind: 'session', sessionId });
  }

  async revokeAllForUser(userId: string): Promise<void> {
    await this.sessions.deleteAllForUser(userId);
    await this.revocations.publish({ kind: 'user', userId });
  }
}
