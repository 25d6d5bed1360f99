import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import { ScanLeases } from './scan-leases.js';
import { type HeldState, PASSKEY_STATES } from './session-state.js';

/** What only the process holding the socket knows: is it open, and which QR code is showing. */
export interface ScanLiveState {
  connected: boolean;
  /** The QR payload waiting to be scanned, or null. */
  qr: string | null;
  /** When that code stops being valid (the driver's estimate), or null when unknown or no code. */
  qrExpiresAt?: Date | null;
  /**
   * The phone scanned the code (pair-success) and the session is still finishing the link (the
   * channel's restart, the login): the number is linked but not connected yet. False again once
   * connected (the durable row then says linked).
   */
  paired?: boolean;
  /** The jid the number paired as, while `paired`; null when the channel did not say. */
  pairedJid?: string | null;
  /** The holder's state (session-state.ts) and since when; absent from a holder that wrote none yet. */
  state?: HeldState | null;
  since?: Date | null;
  /** The passkey ceremony running on the socket: its id (links are bound to it), the code once known, its deadline. */
  passkey?: { id: string; code: string | null; expiresAt: Date; submitted: boolean } | null;
}

const NOTHING: ScanLiveState = { connected: false, qr: null, qrExpiresAt: null, paired: false, pairedJid: null, state: null, since: null, passkey: null };
const HELD_STATES: readonly HeldState[] = ['starting', 'qr', 'pairing_code', 'connecting', 'connected', 'reconnecting', ...PASSKEY_STATES];

// Garbage collection only: a hash whose writer is gone is already ignored (see read).
const TTL_MS = 24 * 3600 * 1000;

/**
 * The live half of a session in Redis, so any replica answers `GET /api/chat/qr` and `/status`.
 * Written only by the lease holder and stamped with its id: when the lease is gone or held by
 * someone else, the hash is stale (a crashed worker never cleared it) and reads as "nothing".
 */
@Injectable()
export class ScanLiveStateStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly leases: ScanLeases,
  ) {}

  async read(workspaceId: string): Promise<ScanLiveState> {
    const results = await this.redis.multi().get(this.leases.key(workspaceId)).hgetall(this.key(workspaceId)).exec();
    const holder = results?.[0]?.[1] as string | null | undefined;
    const hash = (results?.[1]?.[1] ?? {}) as Record<string, string>;
    if (!holder || hash.owner !== holder) return NOTHING;
    const expires = hash.qr && hash.qr_expires_at ? Number(hash.qr_expires_at) : NaN;
    const since = hash.since ? Number(hash.since) : NaN;
    const passkeyExpires = hash.passkey_expires_at ? Number(hash.passkey_expires_at) : NaN;
    return {
      connected: hash.connected === '1',
      qr: hash.qr ? hash.qr : null,
      qrExpiresAt: Number.isFinite(expires) ? new Date(expires) : null,
      paired: hash.paired === '1',
      pairedJid: hash.paired === '1' && hash.paired_jid ? hash.paired_jid : null,
      state: HELD_STATES.find((state) => state === hash.state) ?? null,
      since: Number.isFinite(since) ? new Date(since) : null,
      passkey:
        hash.passkey_id && Number.isFinite(passkeyExpires)
          ? { id: hash.passkey_id, code: hash.passkey_code || null, expiresAt: new Date(passkeyExpires), submitted: hash.passkey_submitted === '1' }
          : null,
    };
  }

  async write(workspaceId: string, owner: string, state: ScanLiveState): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(workspaceId), {
        owner,
        connected: state.connected ? '1' : '0',
        qr: state.qr ?? '',
        qr_expires_at: state.qr && state.qrExpiresAt ? String(state.qrExpiresAt.getTime()) : '',
        paired: state.paired ? '1' : '0',
        paired_jid: (state.paired && state.pairedJid) || '',
        state: state.state ?? '',
        since: state.since ? String(state.since.getTime()) : '',
        passkey_id: state.passkey?.id ?? '',
        passkey_code: state.passkey?.code ?? '',
        passkey_expires_at: state.passkey ? String(state.passkey.expiresAt.getTime()) : '',
        passkey_submitted: state.passkey?.submitted ? '1' : '0',
      })
      .pexpire(this.key(workspaceId), TTL_MS)
      .exec();
  }

  async clear(workspaceId: string): Promise<void> {
    await this.redis.del(this.key(workspaceId));
  }

  private key(workspaceId: string): string {
    return this.keys.key('chat', 'live', workspaceId);
  }
}
