import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { ApiError } from '../../../infra/http/api-error.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { SendCapsRepository } from './send-caps.repository.js';
import type { SendSettings } from './send-settings.js';

export const firstContactsText = (cap: number): string =>
  `new chats limit reached: this number started ${cap} new chats in the last 24 hours (cap ${cap} per day)`;
export const unansweredText = (cap: number): string =>
  `unanswered messages limit reached: ${cap} messages sent to this chat in the last 24 hours without a reply (cap ${cap} per chat)`;

/** The 429s of a send (OpenAPI): each names its cap, with `Retry-After` and `limit`, `cap`, `retry_at`. */
export const SEND_CAP_REFUSALS = [
  '`new chats limit reached: this number started <cap> new chats in the last 24 hours (cap <cap> per day)` (a number linked by QR code starting a chat the ' +
    'contact never wrote in; `limit: "first_contacts"`)',
  '`unanswered messages limit reached: <cap> messages sent to this chat in the last 24 hours without a reply (cap <cap> per chat)` (`limit: "unanswered"`); ' +
    'both with `Retry-After` in seconds (when the oldest counted send leaves the 24 hours) and `retry_at`',
];

/** Which cap refused a send (the 429's `limit`, and the metric's label). */
export type SendCap = 'first_contacts' | 'unanswered';

/**
 * A paced number's caps (docs/sending.md), checked in the send's own transaction before its
 * message is stored: the chats it starts in 24 hours (a chat the contact never wrote in), and
 * the messages one chat gets in 24 hours without a reply. Over either: 429 with `Retry-After`
 * (when the oldest counted send leaves the window). Groups are not capped.
 */
@Injectable()
export class SendCapsService {
  private refusalListener: (cap: SendCap) => void = () => undefined;

  constructor(private readonly caps: SendCapsRepository) {}

  /** The metrics count refusals. */
  onRefusal(listener: (cap: SendCap) => void): void {
    this.refusalListener = listener;
  }

  async check(workspaceId: string, conversation: ConversationEntity, settings: SendSettings, tx: SqlExecutor): Promise<void> {
    if (conversation.isGroup) return;
    if (!(await this.caps.hasInbound(workspaceId, conversation.id, tx))) {
      // The number's lock first (firstContacts takes it), then whether this chat counts already:
      // two first sends into one new chat at once count it once.
      const use = await this.caps.firstContacts(workspaceId, tx);
      if (!(await this.caps.started(workspaceId, conversation.id, tx))) {
        if (use.used >= settings.firstContactsPerDay) this.refuseNewChat(settings, use.resetsAt);
        await this.caps.recordFirstContact(workspaceId, conversation.id, tx);
      }
    }
    const unanswered = await this.caps.unanswered(workspaceId, conversation.id, tx);
    if (unanswered.used >= settings.unansweredPerChat)
      this.refuse('unanswered', unansweredText(settings.unansweredPerChat), settings.unansweredPerChat, unanswered.resetsAt);
  }

  /**
   * Before a conversation is started (nothing stored yet): a chat the contact never wrote in,
   * that the number did not start already, needs room under the new-chats cap. The send's own
   * check (`check`) still decides; this one spares storing a conversation only to refuse it.
   */
  async assertRoomForNewChat(workspaceId: string, conversationId: string | null, settings: SendSettings): Promise<void> {
    if (conversationId && ((await this.caps.hasInbound(workspaceId, conversationId)) || (await this.caps.started(workspaceId, conversationId)))) return;
    const use = await this.caps.firstContacts(workspaceId);
    if (use.used >= settings.firstContactsPerDay) this.refuseNewChat(settings, use.resetsAt);
  }

  private refuseNewChat(settings: SendSettings, resetsAt: Date | null): never {
    return this.refuse('first_contacts', firstContactsText(settings.firstContactsPerDay), settings.firstContactsPerDay, resetsAt);
  }

  private refuse(limit: SendCap, text: string, cap: number, resetsAt: Date | null): never {
    this.refusalListener(limit);
    const retryAt = resetsAt ?? new Date(Date.now() + 24 * 3600_000);
    throw ApiError.tooMany(text, retryAt.getTime() - Date.now(), { limit, cap, retry_at: retryAt.toISOString() });
  }
}
