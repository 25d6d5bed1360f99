import type { ConversationEntity, ConversationStatus } from '../entities/conversation.entity.js';
import type { MessageEntity, MessageStatus } from '../entities/message.entity.js';
import type { PendingMessage } from '../ingest/ingest-hooks.js';
import type { MessageReaction } from '../message-details.js';

/**
 * Every inbox change that commits in a transaction of its own, as the hooks that write beside it
 * (the webhook outbox's rows) see it inside that transaction. A new change is one more member
 * here, and one `InboxChangeHooks.apply` (or `inTransaction`) call in the write path that makes it.
 */
export type InboxChange =
  | MessageIngested
  | OutboundMessageStored
  | MessageEdited
  | MessageReacted
  | MessageDeleted
  | MessageStatusMoved
  | ConversationStatusChanged
  | ConversationAssigned
  | ConversationLabelled;

export type InboxChangeKind = InboxChange['kind'];

/** The change of one kind: `InboxChangeOf<'message.edited'>` is `MessageEdited`. */
export type InboxChangeOf<K extends InboxChangeKind> = Extract<InboxChange, { kind: K }>;

/**
 * A new message stored by ingest (never a repeat, never history, never one the workspace sent):
 * the very object ingest hands its hooks (`PendingMessage`; `IngestHooks` runs these, a group
 * commit's at once), so the hot path allocates nothing more for it.
 */
export type MessageIngested = PendingMessage;

/** Who made an outbound message: an API key, a Console member, an automation, or the number's own phone. */
export type OutboundSource = 'api' | 'console' | 'automation' | 'phone';

/** An outbound message stored as `pending`, before the channel is asked to send it (the API's send). */
export interface OutboundMessageStored {
  kind: 'message.outbound';
  message: MessageEntity;
  conversation: ConversationEntity;
  source: OutboundSource;
  /** The Console member who sent it (null or absent: an API key, an automation, the phone); reports credit them. */
  senderId?: string | null;
}

/** The sender edited a message (a channel's edit, or ours through the API): its new text is stored. */
export interface MessageEdited {
  kind: 'message.edited';
  message: MessageEntity;
  conversation: ConversationEntity;
  /** The text before the edit ('' when unknown). */
  previousContent: string;
  /** Who edited it, as the channel said ('' for the workspace's own edit through the API). */
  editedBy: string;
}

/**
 * Someone's reaction to a message was set, changed or taken back (`emoji` ''): `message.reactions`
 * holds everyone's after the change (message-updates.service.ts).
 */
export interface MessageReacted {
  kind: 'message.reaction';
  message: MessageEntity;
  conversation: ConversationEntity;
  reaction: MessageReaction;
}

/** A message was deleted for everyone (its sender's revoke, or ours through the API); its content is kept. */
export interface MessageDeleted {
  kind: 'message.deleted';
  message: MessageEntity;
  conversation: ConversationEntity;
  /** Who deleted it, as the channel said ('' for the workspace's own delete through the API). */
  revokedBy: string;
}

/** A receipt the channel reported: `played` is stored as `read`; `previousStatus` is the stored one before. */
export interface MessageStatusMoved {
  kind: 'message.status';
  message: MessageEntity;
  conversation: ConversationEntity;
  status: MessageStatus | 'played';
  previousStatus: MessageStatus;
  /** The channel's failure reason with `failed`, else ''. */
  error: string;
}

/**
 * A conversation's status was set (PATCH /api/conversations/:id, an automation's `set_status`, or
 * the snooze wake-up sweep opening a snoozed one), possibly to the one it had.
 */
export interface ConversationStatusChanged {
  kind: 'conversation.status';
  conversation: ConversationEntity;
  previousStatus: ConversationStatus;
}

/**
 * A label was put on or taken off a conversation (`POST`/`DELETE /api/conversations/:id/labels`,
 * an automation's `add_label`), possibly one it had or lacked already.
 */
export interface ConversationLabelled {
  kind: 'conversation.labels';
  conversation: ConversationEntity;
  previousLabelIds: string[];
}

/** A conversation was assigned or unassigned (POST /api/conversations/:id/assign), possibly to whom it had. */
export interface ConversationAssigned {
  kind: 'conversation.assignee';
  conversation: ConversationEntity;
  previousAssigneeId: string | null;
}
