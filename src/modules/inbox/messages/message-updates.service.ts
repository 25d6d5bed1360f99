import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { InboxChangeHook } from '../changes/inbox-change-hooks.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { MessageDeleted, MessageEdited, MessageReacted } from '../changes/inbox-change.js';
import { isUuid } from '../dto/id.pipe.js';
import { wellFormedStrings } from '../ingest/inbound-message.js';
import { normalizeLid, normalizePhone } from '../jid.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { type JidForms, MessageUpdatesRepository, type UpdateOutcome, type UpdateScope, type UpdateTarget } from './message-updates.repository.js';
import { type PendingUpdate, PendingMessageUpdatesRepository, type ReadyTarget, type UpdateOrigin } from './pending-message-updates.repository.js';

/**
 * Where a channel's update was sent: its chat (a 1:1 chat's other jid form, LID or phone, when
 * the channel knows it) and its sender (`fromMe`: this number, from the phone or another device).
 */
export interface UpdateSource {
  chatJid: string;
  chatJidAlt?: string | null;
  senderJid: string;
  senderJidAlt?: string | null;
  fromMe: boolean;
}

/** A channel's reaction: `emoji` '' takes `senderJid`'s reaction back. */
export interface ReactionUpdate extends UpdateSource {
  targetExternalId: string;
  emoji: string;
}

/** A channel's delete for everyone, by `senderJid`. */
export type RevokeUpdate = UpdateSource & { targetExternalId: string };

/** A channel's edit: the new text (or caption) of the message. */
export interface EditUpdate extends UpdateSource {
  targetExternalId: string;
  content: string;
}

/** A message after a change, with its conversation (for the caller's response and the events' audience). */
export interface UpdatedMessage {
  message: MessageEntity;
  conversation: ConversationEntity;
}

type UpdateChange = MessageReacted | MessageEdited | MessageDeleted;

const CHANGE_KIND = { reaction: 'message.reaction', edit: 'message.edited', revoke: 'message.deleted' } as const;

// One entry per person: the device part of a jid (`4915…:12@s.whatsapp.net`) names one of their
// phones or linked devices, not somebody else.
const withoutDevice = (jid: string): string => jid.replace(/:\d+@/, '@');
// Postgres stores no NUL character in text or jsonb (as ingest, withoutNul), and jsonb no lone
// surrogate (a pending update's payload; ingest's wellFormedStrings).
const storable = (text: string): string => wellFormedStrings(text.replaceAll('\u0000', ''));
const userOf = (jid: string): string => withoutDevice(jid).split('@')[0]!;

const originOf = (source: UpdateSource): UpdateOrigin => ({
  chat_jid: storable(withoutDevice(source.chatJid)),
  chat_jid_alt: source.chatJidAlt ? storable(withoutDevice(source.chatJidAlt)) : null,
  sender_jid: storable(withoutDevice(source.senderJid)),
  sender_jid_alt: source.senderJidAlt ? storable(withoutDevice(source.senderJidAlt)) : null,
  from_me: source.fromMe,
});

/** The forms of these jids: `…@s.whatsapp.net` gives a phone, `…@lid` a LID. */
function formsOf(...jids: (string | null)[]): JidForms {
  const forms: JidForms = { jids: [], phones: [], lids: [] };
  for (const jid of jids) {
    if (!jid) continue;
    forms.jids.push(jid);
    const [user, server] = jid.split('@');
    const phone = server === 's.whatsapp.net' ? normalizePhone(user) : null;
    const lid = server === 'lid' ? normalizeLid(user) : null;
    if (phone) forms.phones.push(phone);
    if (lid) forms.lids.push(lid);
  }
  return forms;
}

const RULES: Record<PendingUpdate['kind'], UpdateScope['rule']> = { reaction: 'anyone', edit: 'writer', revoke: 'side-in-one-to-one' };

/** What a channel's update may act on (UpdateScope); none for the workspace's own. */
function scopeOf(update: PendingUpdate): UpdateScope | undefined {
  const origin = update.payload.origin;
  if (!origin) return undefined;
  return {
    chat: formsOf(origin.chat_jid, origin.chat_jid_alt),
    rule: RULES[update.kind],
    fromMe: origin.from_me,
    sender: formsOf(origin.sender_jid, origin.sender_jid_alt),
  };
}

/**
 * What acts on a stored message without being one: reactions (one emoji per person, '' takes it
 * back), edits (new text, marked edited, the preview following) and deletes for everyone (marked
 * deleted, content kept for the workspace). Each change runs the inbox change hooks of its kind in
 * its transaction ('message.reaction', 'message.edited', 'message.deleted') and publishes
 * `message.updated`; none makes a `scan.chat` or counts as a new message. A repeat (the same emoji
 * again, an edit to the text it has, a second revoke) changes nothing and publishes nothing.
 *
 * A channel's update whose message is not stored yet (channels deliver out of order) waits in
 * pending_message_updates; `PendingUpdatesSweeper` applies it, in order of arrival, once the
 * message arrives, and drops it after a few minutes (PendingUpdatesOptions.ttlMs). Ingest itself
 * never looks there: the hot path costs what it did.
 *
 * A channel's update acts only on a message of the chat it was sent in (message ids are the
 * sending device's choice, unique within a chat at best), and is refused (logged, nothing
 * changes) otherwise; whoever is in the chat may react. An edit comes only from the message's
 * writer: ours from this number, a group member's from that member. A revoke in a one-to-one
 * chat comes only from the message's own side; in a group an admin may delete anyone's message,
 * so it is accepted, and one that does not come from the message's sender is logged (a person's
 * jids may differ by form, phone or LID).
 *
 * The updates of one target are serialised (PendingMessageUpdatesRepository.lockUpdates), so an
 * update that is queueing for its message is never overtaken by a later one applied at once.
 */
@Injectable()
export class MessageUpdatesService {
  private readonly logger = new Logger('MessageUpdates');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: MessageUpdatesRepository,
    private readonly pending: PendingMessageUpdatesRepository,
    private readonly changes: InboxChangeHooks,
    private readonly events: InboxEvents,
  ) {}

  /** A channel's reaction to the message `targetExternalId`; waits for it when it is not stored yet. */
  react(workspaceId: string, channel: ChannelName, update: ReactionUpdate): Promise<void> {
    const origin = originOf(update);
    return this.fromChannel(workspaceId, channel, update.targetExternalId, {
      kind: 'reaction',
      payload: { sender_jid: origin.sender_jid, emoji: storable(update.emoji), origin },
    });
  }

  /** A channel's delete for everyone of `targetExternalId`; waits for it when it is not stored yet. */
  revoke(workspaceId: string, channel: ChannelName, update: RevokeUpdate): Promise<void> {
    const origin = originOf(update);
    return this.fromChannel(workspaceId, channel, update.targetExternalId, { kind: 'revoke', payload: { sender_jid: origin.sender_jid, origin } });
  }

  /** A channel's edit of `targetExternalId`; waits for it when it is not stored yet. */
  edit(workspaceId: string, channel: ChannelName, update: EditUpdate): Promise<void> {
    return this.fromChannel(workspaceId, channel, update.targetExternalId, {
      kind: 'edit',
      payload: { content: storable(update.content), origin: originOf(update) },
    });
  }

  /** The workspace's own reaction (through the API) to its message `messageId`; null when there is none such. */
  applyOwnReaction(workspaceId: string, messageId: string, senderJid: string, emoji: string): Promise<UpdatedMessage | null> {
    return this.own(workspaceId, messageId, { kind: 'reaction', payload: { sender_jid: storable(withoutDevice(senderJid)), emoji: storable(emoji) } });
  }

  /** The workspace deleted its message `messageId` for everyone; null when there is none such. */
  markDeleted(workspaceId: string, messageId: string): Promise<UpdatedMessage | null> {
    return this.own(workspaceId, messageId, { kind: 'revoke', payload: { sender_jid: '' } });
  }

  /** The workspace edited its message `messageId`; null when there is none such. */
  applyOwnEdit(workspaceId: string, messageId: string, content: string): Promise<UpdatedMessage | null> {
    return this.own(workspaceId, messageId, { kind: 'edit', payload: { content: storable(content) } });
  }

  /**
   * The sweeper's step for one stored message that updates wait for: in one transaction, with its
   * updates and the message's row locked (another process applying them, or a live update of it,
   * makes this one skip it), every waiting update is taken off the table and applied in order of
   * arrival, each with its hooks; one the message's chat or writer refuses is dropped (logged).
   * Answers how many it took.
   */
  async applyWaiting(target: ReadyTarget): Promise<number> {
    const { workspaceId } = target;
    const { taken, made } = await inTransaction(this.db, async (tx) => {
      const made: { change: UpdateChange; participants: InboxChangeHook[] }[] = [];
      if (!(await this.pending.tryLockUpdates(workspaceId, target.channel, target.targetExternalId, tx))) return { taken: 0, made };
      if (!(await this.pending.lockTarget(workspaceId, target.messageId, tx))) return { taken: 0, made };
      const updates = await this.pending.take(workspaceId, target.channel, target.targetExternalId, tx);
      for (const update of updates) {
        const written = await this.write(workspaceId, update, { by: 'id', messageId: target.messageId, scope: scopeOf(update) }, tx);
        if (written.outcome === 'refused') this.noteRefused(workspaceId, target.channel, target.targetExternalId, update);
        if (written.outcome !== 'applied') continue;
        const change = this.changeOf(update, written);
        const participants = await this.changes.participants(workspaceId, change.kind);
        await this.changes.inTransaction(workspaceId, tx, change, participants);
        made.push({ change, participants });
      }
      return { taken: updates.length, made };
    });
    for (const { change, participants } of made) {
      await this.changes.afterCommit(workspaceId, change, participants);
      this.noteRevoke(workspaceId, change);
    }
    // The message as the last update left it: one event for the Console.
    const last = made[made.length - 1]?.change;
    if (last) await this.events.messageUpdated(workspaceId, last.message, last.conversation);
    return taken;
  }

  private async fromChannel(workspaceId: string, channel: ChannelName, externalId: string, update: PendingUpdate): Promise<void> {
    const target: UpdateTarget = { by: 'channel', channel, externalId, waiting: true, scope: scopeOf(update) };
    const apply = async (tx: SqlExecutor): Promise<UpdateOutcome> => {
      // Issued, not awaited: it travels with the change in the pipelined transaction (no round
      // trip of its own), and Postgres runs the change only once it holds the lock.
      const locked = this.pending.lockUpdates(workspaceId, channel, externalId, tx);
      const outcome = await this.write(workspaceId, update, target, tx);
      await locked;
      if (outcome.outcome === 'missing') await this.pending.add(workspaceId, channel, externalId, update, tx);
      return outcome;
    };
    const written = await this.changes.apply(
      workspaceId,
      CHANGE_KIND[update.kind],
      // The lock and the waiting row need a transaction even when no hook asks for one.
      (tx) => (tx ? apply(tx) : inTransaction(this.db, apply)),
      (outcome) => (outcome.outcome === 'applied' ? this.changeOf(update, outcome) : null),
    );
    if (written.outcome === 'missing') {
      this.logger.debug({ workspaceId, channel, externalId, kind: update.kind }, 'update waits for its message');
      return;
    }
    if (written.outcome === 'refused') this.noteRefused(workspaceId, channel, externalId, update);
    if (written.outcome !== 'applied') return;
    this.noteRevoke(workspaceId, this.changeOf(update, written));
    await this.events.messageUpdated(workspaceId, written.message, written.conversation);
  }

  private async own(workspaceId: string, messageId: string, update: PendingUpdate): Promise<UpdatedMessage | null> {
    // Not an id at all: no such message (rather than a cast error from Postgres).
    if (!isUuid(messageId)) return null;
    const written = await this.changes.apply(
      workspaceId,
      CHANGE_KIND[update.kind],
      (tx) => this.write(workspaceId, update, { by: 'id', messageId }, tx),
      (outcome) => (outcome.outcome === 'applied' ? this.changeOf(update, outcome) : null),
    );
    if (written.outcome === 'missing' || written.outcome === 'refused') return null;
    // A repeat: the message as it is.
    if (written.outcome === 'unchanged') return this.repository.find(workspaceId, messageId);
    await this.events.messageUpdated(workspaceId, written.message, written.conversation);
    return { message: written.message, conversation: written.conversation };
  }

  private write(workspaceId: string, update: PendingUpdate, target: UpdateTarget, tx: SqlExecutor | undefined): Promise<UpdateOutcome> {
    switch (update.kind) {
      case 'reaction':
        return this.repository.react(workspaceId, target, update.payload.sender_jid, update.payload.emoji, tx);
      case 'edit':
        return this.repository.edit(workspaceId, target, update.payload.content, tx);
      case 'revoke':
        return this.repository.markDeleted(workspaceId, target, tx);
    }
  }

  private changeOf(update: PendingUpdate, { message, conversation, previousContent }: UpdatedMessage & { previousContent: string }): UpdateChange {
    switch (update.kind) {
      case 'reaction':
        return { kind: 'message.reaction', message, conversation, reaction: { emoji: update.payload.emoji, sender_jid: update.payload.sender_jid } };
      case 'edit':
        return { kind: 'message.edited', message, conversation, previousContent, editedBy: update.payload.origin?.sender_jid ?? '' };
      case 'revoke':
        return { kind: 'message.deleted', message, conversation, revokedBy: update.payload.sender_jid };
    }
  }

  private noteRefused(workspaceId: string, channel: ChannelName, externalId: string, update: PendingUpdate): void {
    this.logger.warn(
      { workspaceId, channel, externalId, kind: update.kind, chat: update.payload.origin?.chat_jid, sender: update.payload.origin?.sender_jid },
      'update refused: its message is of another chat, or (an edit, a 1:1 revoke) of another sender',
    );
  }

  private noteRevoke(workspaceId: string, change: UpdateChange): void {
    if (change.kind !== 'message.deleted' || !change.revokedBy || !change.message.senderJid) return;
    if (userOf(change.revokedBy) === userOf(change.message.senderJid)) return;
    this.logger.log(
      { workspaceId, messageId: change.message.id, sender: change.message.senderJid, revokedBy: change.revokedBy },
      'message deleted for everyone by someone other than its sender (a group admin, or the sender under another jid)',
    );
  }
}
