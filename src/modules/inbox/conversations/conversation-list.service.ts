import { Injectable } from '@nestjs/common';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import type { ConversationCountsResponse } from '../dto/conversation-counts.dto.js';
import type { ConversationResponse } from '../dto/inbox-responses.dto.js';
import { toConversationResponse } from '../inbox.mapper.js';
import { type ConversationListParams, type ConversationSnapshot, encodeConversationCursor, parseListQuery, parseStatus } from './conversation-list.query.js';
import { ConversationListRepository, type ListedConversation } from './conversation-list.repository.js';
import { viewerOf } from './conversation-viewer.js';

/** A page of the list; `nextCursor` (the `X-Next-Cursor` header) is null on the last page. */
export interface ConversationListPage {
  conversations: ConversationResponse[];
  nextCursor: string | null;
}

@Injectable()
export class ConversationListService {
  constructor(private readonly repository: ConversationListRepository) {}

  /**
   * Newest first, filtered; one row more than asked is read to know whether a next page exists.
   * Page 1 fixes the walk's `as of` (the cursor carries it), later pages keep to it.
   */
  async list(actor: WorkspaceActor, params: ConversationListParams): Promise<ConversationListPage> {
    const { filter, limit, before } = parseListQuery(actor, params);
    const viewer = viewerOf(actor);
    let rows: ListedConversation[];
    let snapshot: ConversationSnapshot | null;
    if (before) {
      rows = await this.repository.after(actor.workspaceId, viewer, filter, limit + 1, before);
      const { asOf, asOfMicros, xmax, xip } = before;
      snapshot = { asOf, asOfMicros, xmax, xip };
    } else {
      ({ rows, snapshot } = await this.repository.first(actor.workspaceId, viewer, filter, limit + 1));
    }
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    const nextCursor = last && snapshot ? encodeConversationCursor({ ...snapshot, micros: last.keyMicros, seq: last.keySeq, id: last.id }) : null;
    return { conversations: rows.slice(0, limit).map(toConversationResponse), nextCursor };
  }

  /** The list's figures; `status` (default open) scopes those by assignee, unread and label. */
  async counts(actor: WorkspaceActor, status: unknown): Promise<ConversationCountsResponse> {
    const scope = parseStatus(status) ?? 'open';
    const counts = await this.repository.counts(actor.workspaceId, viewerOf(actor), actor.userId, scope);
    return {
      status: counts.status,
      // An API key is nobody: nothing is its own.
      assignee: { mine: actor.userId ? counts.mine : 0, unassigned: counts.unassigned, all: counts.all },
      unread: counts.unread,
      labels: counts.labels.map((label) => ({ label_id: label.labelId, count: label.count })),
    };
  }
}
