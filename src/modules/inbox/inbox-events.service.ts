import { Injectable, Logger } from '@nestjs/common';
import type { LiveEventAudience } from '../events/live-event.types.js';
import { LiveEventsService, type OutgoingLiveEvent } from '../events/live-events.service.js';
import { ConversationRepository } from './conversations/conversation.repository.js';
import type { ContactEntity } from './entities/contact.entity.js';
import type { ConversationEntity } from './entities/conversation.entity.js';
import type { MessageEntity } from './entities/message.entity.js';
import { toContactResponse, toConversationResponse, toMessageResponse } from './inbox.mapper.js';

/** What an event needs of its conversation: who it is assigned to (agents see only their own). */
export type AssignedConversation = Pick<ConversationEntity, 'assigneeId'>;

/** A new message for `messagesCreated`, with the conversations a contact merge moved alongside. */
export interface CreatedEntry {
  workspaceId: string;
  message: MessageEntity;
  conversation: ConversationEntity;
  alsoUpdated?: readonly ConversationEntity[];
}

/**
 * Live events of the inbox, always published after commit with the REST shapes. The stream is a
 * convenience for open Consoles: a failed publish is logged, never turned into a failed request.
 * Every event carries its conversation's assignee, so agents' streams show only the
 * conversations the REST routes show them (unassigned or their own).
 */
@Injectable()
export class InboxEvents {
  private readonly logger = new Logger('InboxEvents');
  /** Resolves once the latest call issued its publishes (or gave up): see `inOrder`. */
  private issued: Promise<void> = Promise.resolve();

  constructor(
    private readonly live: LiveEventsService,
    private readonly conversations: ConversationRepository,
  ) {}

  /** Both events in one Redis round trip, in this order. */
  messageCreated(workspaceId: string, message: MessageEntity, conversation: ConversationEntity): Promise<void> {
    return this.messagesCreated([{ workspaceId, message, conversation }]);
  }

  /**
   * Group commit: the new messages of a group (any workspaces), each with message.created and
   * conversation.updated, then `alsoUpdated` (conversations a contact merge moved): exactly the
   * events `messageCreated` and `conversationUpdated` publish one by one, in the same order per
   * workspace. A workspace's run of events goes in one script call (a merge's updates, rare, as
   * their own call between), and every call is issued in one turn, so the auto-pipelining
   * connection sends them in one write: one round trip per group instead of one per message. Ids,
   * audiences, replay and order per workspace are as before; best effort as ever.
   *
   * Events are built only for workspaces someone watches (LiveEventsService.watched): in a burst
   * into workspaces without an open stream, building them cost about a sixth of a message's CPU
   * for nothing.
   */
  messagesCreated(entries: readonly CreatedEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const watched = this.live.watched(entries.map((entry) => entry.workspaceId)).catch((error: unknown) => {
      // Not knowing, build them all: the publish script drops what nobody watches.
      this.logger.warn({ err: error }, 'reading the watch marks failed');
      return undefined;
    });
    return this.inOrder(watched, (marked) => this.issue(marked ? entries.filter((entry) => marked.has(entry.workspaceId)) : entries));
  }

  /** Publishes the entries' events, one script call per workspace's run, all issued in this turn. */
  private issue(entries: readonly CreatedEntry[]): Promise<void>[] {
    const byWorkspace = new Map<string, (OutgoingLiveEvent[] | ConversationEntity)[]>();
    for (const { workspaceId, message, conversation, alsoUpdated } of entries) {
      let runs = byWorkspace.get(workspaceId);
      if (!runs) byWorkspace.set(workspaceId, (runs = []));
      let run = runs[runs.length - 1];
      if (!Array.isArray(run)) runs.push((run = []));
      const audience = { assigneeId: conversation.assigneeId };
      run.push(
        { name: 'message.created', data: toMessageResponse(message), audience },
        { name: 'conversation.updated', data: toConversationResponse(conversation), audience },
      );
      runs.push(...(alsoUpdated ?? []));
    }
    const sent: Promise<void>[] = [];
    for (const [workspaceId, runs] of byWorkspace) {
      for (const run of runs) {
        if (Array.isArray(run)) sent.push(this.live.publishAll(workspaceId, run));
        else sent.push(this.publishConversation(workspaceId, run, {}));
      }
    }
    return sent;
  }

  /**
   * Issues `issue`'s publishes once `first` resolved and every earlier call of this service issued
   * its own. Redis runs one connection's commands in order, so a workspace's stream holds the
   * events in the order they were asked for, although some calls wait for a round trip first (the
   * watch marks of `messagesCreated`, which ingest does not await): a message.updated never
   * overtakes its message.created. `first` must not reject.
   */
  private async inOrder<T>(first: Promise<T>, issue: (value: T) => Promise<void>[]): Promise<void> {
    const previous = this.issued;
    let done!: () => void;
    this.issued = new Promise((resolve) => (done = resolve));
    let sent: Promise<void>[];
    try {
      const value = await first;
      await previous;
      sent = issue(value);
    } finally {
      done();
    }
    await Promise.all(sent);
  }

  /**
   * Pass the message's conversation when the caller has it; without it the assignee is read
   * (one primary-key lookup), and the event is not published when that fails: an event without
   * its audience would reach every agent.
   */
  async messageUpdated(workspaceId: string, message: MessageEntity, conversation?: AssignedConversation): Promise<void> {
    let assigned = conversation;
    if (!assigned) {
      try {
        assigned = (await this.conversations.find(workspaceId, null, message.conversationId)) ?? undefined;
      } catch (error) {
        this.logger.warn({ err: error, workspaceId, event: 'message.updated' }, 'live event not published: conversation lookup failed');
        return;
      }
      // Deleted meanwhile: nobody can open it any more.
      if (!assigned) return;
    }
    const audience = { assigneeId: assigned.assigneeId };
    await this.inOrder(Promise.resolve(), () => [this.live.publish(workspaceId, 'message.updated', toMessageResponse(message), audience)]);
  }

  /**
   * `previousAssigneeId`: the assignee before this change, when the change may have moved it (an
   * assignment). The previous assignee receives the event too, so their Console drops the
   * conversation; after the event they see nothing more of it.
   */
  async conversationUpdated(workspaceId: string, conversation: ConversationEntity, change: { previousAssigneeId?: string | null } = {}): Promise<void> {
    await this.inOrder(Promise.resolve(), () => [this.publishConversation(workspaceId, conversation, change)]);
  }

  /**
   * A contact created or changed over the API, in the REST shape. Contacts have no assignee:
   * every member lists them, so every stream of the workspace receives it.
   */
  async contactChanged(workspaceId: string, name: 'contact.created' | 'contact.updated', contact: ContactEntity): Promise<void> {
    await this.inOrder(Promise.resolve(), () => [this.live.publish(workspaceId, name, toContactResponse(contact))]);
  }

  /**
   * A private note added to a conversation, in the REST note shape, to those who see the
   * conversation (`conversation` gives its assignee). Only the live stream carries notes: no
   * webhook does.
   */
  async noteCreated(workspaceId: string, note: object, conversation: AssignedConversation): Promise<void> {
    const audience = { assigneeId: conversation.assigneeId };
    await this.inOrder(Promise.resolve(), () => [this.live.publish(workspaceId, 'note.created', note, audience)]);
  }

  /** A contact deleted over the API: `{id}`, after the `conversation.updated` of each chat it unlinked. */
  async contactDeleted(workspaceId: string, contactId: string): Promise<void> {
    await this.inOrder(Promise.resolve(), () => [this.live.publish(workspaceId, 'contact.deleted', { id: contactId })]);
  }

  private publishConversation(workspaceId: string, conversation: ConversationEntity, change: { previousAssigneeId?: string | null }): Promise<void> {
    const audience: LiveEventAudience = { assigneeId: conversation.assigneeId };
    if (change.previousAssigneeId !== undefined) audience.previousAssigneeId = change.previousAssigneeId;
    return this.live.publish(workspaceId, 'conversation.updated', toConversationResponse(conversation), audience);
  }
}
