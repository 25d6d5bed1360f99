import { ApiError } from '../../infra/http/api-error.js';
import { parseTimeZone } from '../inbox/stats/inbox-stats.service.js';
import type { ReportWindow } from './reports.repository.js';

export const DEFAULT_REPORT_DAYS = 14;
export const MAX_REPORT_DAYS = 366;
export const BAD_FROM = 'from must be a date like 2026-11-22';
export const BAD_TO = 'to must be a date like 2026-11-22';
export const FROM_AFTER_TO = 'from must not be after to';
export const RANGE_TOO_LONG = `the range must be at most ${MAX_REPORT_DAYS} days`;
export { BAD_TIME_ZONE, TIME_ZONE_PATTERN } from '../inbox/stats/inbox-stats.service.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30), from 1900 on, as days since the epoch; else 400 `text`. */
function parseDate(raw: unknown, text: string): number | undefined {
  // `?from=` is not absent: an empty value is as wrong as any other that is not a date.
  if (raw === undefined) return undefined;
  const match = typeof raw === 'string' ? DATE.exec(raw) : null;
  if (!match) throw ApiError.badRequest(text);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  if (year < 1900 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) throw ApiError.badRequest(text);
  return time / DAY_MS;
}

const isoDay = (days: number): string => new Date(days * DAY_MS).toISOString().slice(0, 10);

/** Today's date in `timeZone` at `now`, as days since the epoch. */
function todayIn(timeZone: string, now: Date): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return Date.parse(`${parts}T00:00:00Z`) / DAY_MS;
}

/**
 * The report's days from the query: `to` defaults to today in the zone, `from` to 13 days before
 * `to` (14 days); both inclusive, at most 366 days, `from` not after `to`.
 */
export function parseReportWindow(fromRaw: unknown, toRaw: unknown, tzRaw: unknown, now: Date): ReportWindow {
  const from = parseDate(fromRaw, BAD_FROM);
  const to = parseDate(toRaw, BAD_TO);
  const timeZone = parseTimeZone(tzRaw);
  const last = to ?? todayIn(timeZone, now);
  const first = from ?? last - (DEFAULT_REPORT_DAYS - 1);
  if (first > last) throw ApiError.badRequest(FROM_AFTER_TO);
  if (last - first + 1 > MAX_REPORT_DAYS) throw ApiError.badRequest(RANGE_TOO_LONG);
  return { from: isoDay(first), to: isoDay(last), timeZone };
}
