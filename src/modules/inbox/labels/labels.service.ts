import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import type { ContactResponse, ConversationResponse } from '../dto/inbox-responses.dto.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { ConversationLabelled } from '../changes/inbox-change.js';
import { InboxEvents } from '../inbox-events.service.js';
import { toContactResponse, toConversationResponse } from '../inbox.mapper.js';
import { type CreateLabelDto, DEFAULT_LABEL_COLOR, type LabelResponse, type UpdateLabelDto } from './dto/label.dto.js';
import { toLabelResponse } from './label.mapper.js';
import { type ConversationLabels, LabelRepository } from './label.repository.js';

/** A workspace has at most this many labels (the list and the Console's pickers show them all). */
export const LABEL_CAP = 500;
export const LABEL_EXISTS = 'a label with this name already exists';
export const LABEL_NOT_FOUND = 'label not found';
export const LABELS_FULL = `a workspace has at most ${LABEL_CAP} labels`;

/**
 * Workspace labels and their use on conversations and contacts. A label put on or taken off a
 * conversation is a `conversation.updated` live event and, through InboxChangeHooks, the webhook
 * `conversation.updated` with `changes: ["labels"]`; a contact's is the live `contact.updated`.
 * Deleting a label takes it off everything with live events only (docs/inbox.md, Labels).
 */
@Injectable()
export class LabelsService {
  constructor(
    private readonly labels: LabelRepository,
    private readonly events: InboxEvents,
    private readonly changes: InboxChangeHooks,
  ) {}

  async list(workspaceId: string): Promise<LabelResponse[]> {
    return (await this.labels.list(workspaceId, LABEL_CAP)).map(toLabelResponse);
  }

  /** Whether the workspace has the label (an automation's `add_label` is checked when saved). */
  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.labels.find(workspaceId, id)) !== null;
  }

  async create(workspaceId: string, dto: CreateLabelDto): Promise<LabelResponse> {
    const created = await this.labels.insert(workspaceId, dto.name, dto.color ?? DEFAULT_LABEL_COLOR, LABEL_CAP);
    if (created === 'conflict') throw ApiError.conflict(LABEL_EXISTS);
    if (created === 'full') throw ApiError.conflict(LABELS_FULL);
    return toLabelResponse(created);
  }

  async update(workspaceId: string, id: string, dto: UpdateLabelDto): Promise<LabelResponse> {
    const updated = await this.labels.update(workspaceId, id, dto);
    if (updated === 'conflict') throw ApiError.conflict(LABEL_EXISTS);
    if (!updated) throw ApiError.notFound(LABEL_NOT_FOUND);
    return toLabelResponse(updated);
  }

  /** Deletes it and takes it off everything it was on; each conversation changed gets its live event. */
  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    const changed = await this.labels.delete(workspaceId, id);
    if (!changed) throw ApiError.notFound(LABEL_NOT_FOUND);
    for (const conversation of changed) await this.events.conversationUpdated(workspaceId, conversation);
    return { ok: true };
  }

  async labelConversation(actor: WorkspaceActor, conversationId: string, labelId: string): Promise<ConversationResponse> {
    const result = await this.changes.apply(
      actor.workspaceId,
      'conversation.labels',
      (tx) => this.labels.labelConversation(actor.workspaceId, viewerOf(actor), conversationId, labelId.toLowerCase(), tx),
      (written) => (typeof written === 'string' ? null : labelledChange(written)),
    );
    if (result === 'no row') throw ApiError.notFound('conversation not found');
    if (result === 'no label') throw ApiError.badRequest(LABEL_NOT_FOUND);
    await this.events.conversationUpdated(actor.workspaceId, result.conversation);
    return toConversationResponse(result.conversation);
  }

  async unlabelConversation(actor: WorkspaceActor, conversationId: string, labelId: string): Promise<ConversationResponse> {
    const result = await this.changes.apply(
      actor.workspaceId,
      'conversation.labels',
      (tx) => this.labels.unlabelConversation(actor.workspaceId, viewerOf(actor), conversationId, labelId, tx),
      (written) => written && labelledChange(written),
    );
    if (!result) throw ApiError.notFound('conversation not found');
    await this.events.conversationUpdated(actor.workspaceId, result.conversation);
    return toConversationResponse(result.conversation);
  }

  async labelContact(workspaceId: string, contactId: string, labelId: string): Promise<ContactResponse> {
    const result = await this.labels.labelContact(workspaceId, contactId, labelId.toLowerCase());
    if (result === 'no row') throw ApiError.notFound('contact not found');
    if (result === 'no label') throw ApiError.badRequest(LABEL_NOT_FOUND);
    await this.events.contactChanged(workspaceId, 'contact.updated', result);
    return toContactResponse(result);
  }

  async unlabelContact(workspaceId: string, contactId: string, labelId: string): Promise<ContactResponse> {
    const result = await this.labels.unlabelContact(workspaceId, contactId, labelId);
    if (!result) throw ApiError.notFound('contact not found');
    await this.events.contactChanged(workspaceId, 'contact.updated', result);
    return toContactResponse(result);
  }
}

const labelledChange = ({ conversation, previousLabelIds }: ConversationLabels): ConversationLabelled => ({
  kind: 'conversation.labels',
  conversation,
  previousLabelIds,
});
