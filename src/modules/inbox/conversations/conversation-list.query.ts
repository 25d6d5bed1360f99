import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { CHANNEL_NAMES, type ChannelName } from '../../channels/channel-gateway.port.js';
import { STATUS_INVALID } from '../dto/conversation.dto.js';
import { isUuid } from '../dto/id.pipe.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';

/** docs/api.md#limits: a page holds 30 conversations unless `limit` says otherwise. */
export const CONVERSATION_PAGE = 30;
export const MAX_CONVERSATION_PAGE = 100;
export const MAX_CONVERSATION_QUERY = 200;

export { STATUS_INVALID };
export const ASSIGNEE_INVALID = 'assignee must be me, none or a user id';
export const ASSIGNEE_ME_WITH_KEY = 'assignee=me needs a signed-in user; use a user id with an API key';
export const LABEL_INVALID = 'label must be a label id';
export const CHANNEL_INVALID = 'channel must be scan or meta';
export const UNREAD_INVALID = 'unread must be true or false';
export const LIMIT_INVALID = `limit must be an integer between 1 and ${MAX_CONVERSATION_PAGE}`;
export const CURSOR_INVALID = 'invalid cursor';
export const Q_TOO_LONG = `q must be at most ${MAX_CONVERSATION_QUERY} characters`;
export const Q_TWICE = 'q must be given once, as text';

export interface ConversationFilter {
  status?: ConversationStatus;
  /** `null`: unassigned only; a user id: assigned to that user. */
  assigneeId?: string | null;
  labelId?: string;
  channel?: ChannelName;
  /** true: some unread inbound message; false: none. */
  unread?: boolean;
  /** Name (case-insensitive part) or phone digits; '' searches nothing. */
  q?: string;
}

/**
 * What page 1 saw: `asOf`, the highest message seq of the workspace then; `asOfMicros`, that
 * moment; `xmax` and `xip`, its snapshot's first unassigned transaction id and the ones in
 * progress (their low 32 bits, as rows' `xmin` holds them), which tell a message stored with a
 * seq below asOf but committed after page 1 (conversation-list.repository.ts).
 */
export interface ConversationSnapshot {
  asOf: string;
  asOfMicros: string;
  xmax: string;
  xip: string[];
}

/** Where a later page goes on: page 1's snapshot and the key (µs, seq, id) of the previous page's last row. */
export interface ConversationCursor extends ConversationSnapshot {
  micros: string;
  seq: string;
  id: string;
}

export interface ConversationListQuery {
  filter: ConversationFilter;
  limit: number;
  before: ConversationCursor | null;
}

/** The raw query parameters (each `unknown`: a repeated one arrives as an array). */
export interface ConversationListParams {
  status?: unknown;
  assignee?: unknown;
  label?: unknown;
  channel?: unknown;
  unread?: unknown;
  q?: unknown;
  limit?: unknown;
  before?: unknown;
}

const BIGINT = /^\d{1,19}$/;
const MICROS = /^-?\d{1,18}$/;
// The earliest instant Postgres stores (4714-11-24 BC, µs since 1970): anything below fails the query.
const MIN_MICROS = -210_866_803_200_000_000n;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

export function encodeConversationCursor(cursor: ConversationCursor): string {
  const { asOf, asOfMicros, xmax, xip, micros, seq, id } = cursor;
  return Buffer.from(`${asOf}:${asOfMicros}:${xmax}:${xip.join('.')}:${micros}:${seq}:${id}`, 'utf8').toString('base64url');
}

// Transaction ids as rows hold them: 32 bits. A snapshot names at most a few hundred in progress.
const XID = /^\d{1,10}$/;
const isXid = (value: string): boolean => XID.test(value) && Number(value) < 2 ** 32;
const MAX_IN_PROGRESS = 1000;

export function decodeConversationCursor(raw: unknown): ConversationCursor {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{1,16000}$/.test(raw)) throw ApiError.badRequest(CURSOR_INVALID);
  const parts = Buffer.from(raw, 'base64url').toString('utf8').split(':');
  const [asOf, asOfMicros, xmax, inProgress, micros, seq, id] = parts;
  const xip = inProgress ? inProgress.split('.') : [];
  const valid =
    parts.length === 7 &&
    isXid(xmax!) &&
    xip.length <= MAX_IN_PROGRESS &&
    xip.every(isXid) &&
    BIGINT.test(asOf!) &&
    BigInt(asOf!) <= MAX_BIGINT &&
    MICROS.test(asOfMicros!) &&
    BigInt(asOfMicros!) >= MIN_MICROS &&
    MICROS.test(micros!) &&
    BigInt(micros!) >= MIN_MICROS &&
    BIGINT.test(seq!) &&
    BigInt(seq!) <= MAX_BIGINT &&
    isUuid(id);
  if (!valid) throw ApiError.badRequest(CURSOR_INVALID);
  return { asOf: asOf!, asOfMicros: asOfMicros!, xmax: xmax!, xip, micros: micros!, seq: seq!, id: id!.toLowerCase() };
}

/** `?status=`: one of the four (an empty value is a wrong value, not a missing one). */
export function parseStatus(raw: unknown): ConversationStatus | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !(CONVERSATION_STATUSES as readonly string[]).includes(raw)) throw ApiError.badRequest(STATUS_INVALID);
  return raw as ConversationStatus;
}

/** Every query parameter of `GET /api/conversations`; anything wrong is a 400 naming it. */
export function parseListQuery(actor: WorkspaceActor, params: ConversationListParams): ConversationListQuery {
  const filter: ConversationFilter = {};
  const status = parseStatus(params.status);
  if (status) filter.status = status;
  const { assignee, label, channel, unread, q, limit, before } = params;
  if (assignee !== undefined) filter.assigneeId = parseAssignee(actor, assignee);
  if (label !== undefined) {
    if (!isUuid(label)) throw ApiError.badRequest(LABEL_INVALID);
    filter.labelId = label.toLowerCase();
  }
  if (channel !== undefined) {
    if (typeof channel !== 'string' || !(CHANNEL_NAMES as readonly string[]).includes(channel)) throw ApiError.badRequest(CHANNEL_INVALID);
    filter.channel = channel as ChannelName;
  }
  if (unread !== undefined) {
    if (unread !== 'true' && unread !== 'false') throw ApiError.badRequest(UNREAD_INVALID);
    filter.unread = unread === 'true';
  }
  if (q !== undefined) {
    if (typeof q !== 'string') throw ApiError.badRequest(Q_TWICE);
    if (q.length > MAX_CONVERSATION_QUERY) throw ApiError.badRequest(Q_TOO_LONG);
    if (q.trim()) filter.q = q.trim();
  }
  return { filter, limit: parseLimit(limit), before: before === undefined ? null : decodeConversationCursor(before) };
}

function parseAssignee(actor: WorkspaceActor, assignee: unknown): string | null {
  if (assignee === 'none') return null;
  if (assignee === 'me') {
    if (!actor.userId) throw ApiError.badRequest(ASSIGNEE_ME_WITH_KEY);
    return actor.userId;
  }
  if (isUuid(assignee)) return assignee.toLowerCase();
  throw ApiError.badRequest(ASSIGNEE_INVALID);
}

function parseLimit(raw: unknown): number {
  if (raw === undefined) return CONVERSATION_PAGE;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_CONVERSATION_PAGE) {
    throw ApiError.badRequest(LIMIT_INVALID);
  }
  return Number(raw);
}
