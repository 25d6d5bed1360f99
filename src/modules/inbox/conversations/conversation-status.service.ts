import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { Clock } from '../../auth/clock/clock.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { ConversationResponse } from '../dto/inbox-responses.dto.js';
import type { ConversationStatus } from '../entities/conversation.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { toConversationResponse } from '../inbox.mapper.js';
import { ConversationRepository, type ConversationUpdate } from './conversation.repository.js';
import { viewerOf } from './conversation-viewer.js';
import { SnoozedConversationsRepository } from './snoozed-conversations.repository.js';

export const SNOOZE_REQUIRED = 'snoozed_until is required when status is snoozed';
export const SNOOZE_ONLY_SNOOZED = 'snoozed_until is only for status snoozed';
export const SNOOZE_FORMAT = 'snoozed_until must be an RFC 3339 date-time with a time zone, e.g. 2026-12-03T09:00:00Z';
export const SNOOZE_NOT_FUTURE = 'snoozed_until must be a future date-time';
export const SNOOZE_TOO_FAR = 'snoozed_until must be at most 365 days ahead';
export const MAX_SNOOZE_DAYS = 365;
const DAY_MS = 86_400_000;
// JSON Schema's `format: date-time` (RFC 3339): seconds and a zone required, fractions optional.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
// Conversations woken per sweep round; the rest wait for the next round.
const WAKE_BATCH = 500;

/**
 * What PATCH asks for: a status, and with `snoozed` when it ends (`snoozedUntil`, as sent); an
 * automation says how long instead (`snoozeMinutes`, counted from the injectable clock's now).
 */
export interface StatusRequest {
  status: ConversationStatus;
  snoozedUntil?: unknown;
  snoozeMinutes?: number;
}

/**
 * Statuses (docs/inbox.md, "Statuses"): `open`, `pending` (waiting on the customer), `snoozed`
 * (out of sight until `snoozed_until` or the customer's next message) and `closed`. Every change
 * goes through InboxChangeHooks (the webhook's `conversation.updated`) and the live event.
 */
@Injectable()
export class ConversationStatusService {
  private readonly logger = new Logger('ConversationStatus');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly snoozed: SnoozedConversationsRepository,
    private readonly changes: InboxChangeHooks,
    private readonly events: InboxEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * The shape of the request is checked first (400 before 404, as every route); whether the time
   * is ahead is checked once the conversation is found: it depends on the present, which no
   * request schema can state, so a body valid by the document meets it as the resource's rule.
   */
  async setStatus(actor: WorkspaceActor, id: string, request: StatusRequest): Promise<ConversationResponse> {
    const until = request.snoozeMinutes !== undefined ? this.clock.date(request.snoozeMinutes * 60_000) : snoozeTime(request);
    if (until) {
      if (!(await this.conversations.find(actor.workspaceId, viewerOf(actor), id))) throw ApiError.notFound('conversation not found');
      const now = this.clock.now();
      if (until.getTime() <= now) throw ApiError.badRequest(SNOOZE_NOT_FUTURE);
      if (until.getTime() > now + MAX_SNOOZE_DAYS * DAY_MS) throw ApiError.badRequest(SNOOZE_TOO_FAR);
    }
    const result = await this.changes.apply(
      actor.workspaceId,
      'conversation.status',
      (tx) => this.conversations.update(actor.workspaceId, viewerOf(actor), id, { status: request.status, snoozedUntil: until }, tx),
      (updated) => updated && { kind: 'conversation.status', conversation: updated.conversation, previousStatus: updated.previousStatus },
    );
    if (!result) throw ApiError.notFound('conversation not found');
    await this.events.conversationUpdated(actor.workspaceId, result.conversation);
    return toConversationResponse(result.conversation);
  }

  /**
   * Opens every snoozed conversation whose time has come (by the injectable clock), each in its
   * own change (its webhook rows in its transaction), then its live event. A conversation another
   * process is waking, or that a message woke meanwhile, is passed over.
   */
  async wakeDue(): Promise<number> {
    const now = this.clock.date();
    let woken = 0;
    for (const due of await this.snoozed.due(now, WAKE_BATCH)) {
      try {
        const result = await this.changes.apply(
          due.workspaceId,
          'conversation.status',
          (tx) => this.conversations.wake(due.workspaceId, due.id, now, tx),
          (updated: ConversationUpdate | null) =>
            updated && { kind: 'conversation.status', conversation: updated.conversation, previousStatus: updated.previousStatus },
        );
        if (!result) continue;
        woken++;
        await this.events.conversationUpdated(due.workspaceId, result.conversation);
      } catch (error) {
        // Left snoozed and due: the next round tries again.
        this.logger.warn({ err: error, workspaceId: due.workspaceId, conversationId: due.id }, 'waking a snoozed conversation failed');
      }
    }
    return woken;
  }
}

/** The wake-up time a request sets: a Date with `snoozed`, null otherwise (400s for what does not fit). */
function snoozeTime({ status, snoozedUntil }: StatusRequest): Date | null {
  if (status !== 'snoozed') {
    if (snoozedUntil !== undefined) throw ApiError.badRequest(SNOOZE_ONLY_SNOOZED);
    return null;
  }
  if (snoozedUntil === undefined) throw ApiError.badRequest(SNOOZE_REQUIRED);
  const time = typeof snoozedUntil === 'string' && DATE_TIME.test(snoozedUntil) ? new Date(snoozedUntil) : null;
  if (!time || Number.isNaN(time.getTime())) throw ApiError.badRequest(SNOOZE_FORMAT);
  return time;
}
