import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Clock } from '../../auth/clock/clock.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import { InboxStatsRepository } from './inbox-stats.repository.js';
import type { InboxStatsResponse } from './inbox-stats.response.js';

export const DEFAULT_DAYS = 14;
export const MAX_DAYS = 90;
export const BAD_DAYS = `days must be an integer between 1 and ${MAX_DAYS}`;
export const BAD_TIME_ZONE = 'tz must be an IANA time zone such as Europe/Berlin';

function parseDays(raw: unknown): number {
  // `?days=` is not absent: an empty value is as wrong as any other that is not a number.
  if (raw === undefined) return DEFAULT_DAYS;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_DAYS) throw ApiError.badRequest(BAD_DAYS);
  return Number(raw);
}

/**
 * What a zone name looks like, checked before the tz database is asked (the document states it as
 * the `tz` pattern). Which names exist is the runtime's tz database's say, aliases included
 * (`US/Pacific`, `utc`), so the document lists none.
 */
export const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/;

/** An IANA zone name (or alias) Node knows (Postgres reads the same tz database), canonical; `UTC` when absent. */
export function parseTimeZone(raw: unknown): string {
  if (raw === undefined) return 'UTC';
  if (typeof raw !== 'string' || !TIME_ZONE_PATTERN.test(raw)) throw ApiError.badRequest(BAD_TIME_ZONE);
  try {
    return new Intl.DateTimeFormat('en', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw ApiError.badRequest(BAD_TIME_ZONE);
  }
}

/** The overview's figures: messages per day, open and unassigned conversations. */
@Injectable()
export class InboxStatsService {
  constructor(
    private readonly stats: InboxStatsRepository,
    private readonly clock: Clock,
  ) {}

  async read(actor: WorkspaceActor, daysParam: unknown, tzParam: unknown): Promise<InboxStatsResponse> {
    const days = parseDays(daysParam);
    const timezone = parseTimeZone(tzParam);
    const viewer = viewerOf(actor);
    const [perDay, counts] = await Promise.all([
      this.stats.perDay(actor.workspaceId, viewer, this.clock.date(), timezone, days),
      this.stats.openCounts(actor.workspaceId, viewer),
    ]);
    return { timezone, days: perDay, ...counts };
  }
}
