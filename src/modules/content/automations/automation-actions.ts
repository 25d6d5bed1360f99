import { Injectable, Logger } from '@nestjs/common';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { ConversationRepository } from '../../inbox/conversations/conversation.repository.js';
import { ConversationStatusService } from '../../inbox/conversations/conversation-status.service.js';
import { ConversationsService } from '../../inbox/conversations/conversations.service.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { LabelsService } from '../../inbox/labels/labels.service.js';
import { type OutgoingDraft, templateDraft, textDraft } from '../../inbox/messages/outgoing-draft.js';
import { SendMessageService } from '../../inbox/messages/send-message.service.js';
import { KnowledgeService } from '../knowledge/knowledge.service.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { Action } from './automation-rules.js';
import { ReplyGuard } from './reply-guard.js';

/** The message an automation acts on, and which action of which automation this is. */
export interface ActionContext {
  workspaceId: string;
  automationId: string;
  message: MessageEntity;
  index: number;
}

/** What an action did; anything but `done` is logged with its reason. */
export type ActionOutcome = 'done' | 'no answer' | 'not connected' | 'loop guard' | 'conversation gone';

/**
 * An automation acts as a member who sees the whole inbox (like an API key): the same services
 * and rules as the API's routes, with no user behind it.
 */
const automationActor = (workspaceId: string): WorkspaceActor => ({
  workspaceId,
  via: 'api_key',
  role: 'owner',
  userId: null,
  apiKeyId: null,
  subscriptionStatus: 'active',
  seesAllConversations: true,
});

/** Runs one action through the services the API uses: replies are sends, stored as outbound messages. */
@Injectable()
export class AutomationActions {
  private readonly logger = new Logger('Automations');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly conversationActions: ConversationsService,
    private readonly sender: SendMessageService,
    private readonly channels: ChannelRegistry,
    private readonly templates: TemplatesService,
    private readonly knowledge: KnowledgeService,
    private readonly guard: ReplyGuard,
    private readonly labels: LabelsService,
    private readonly statuses: ConversationStatusService,
  ) {}

  async run(context: ActionContext, action: Action): Promise<ActionOutcome> {
    const { workspaceId, message } = context;
    switch (action.type) {
      case 'reply':
        return this.reply(context, textDraft(action.body));
      case 'reply_template':
        return this.reply(context, templateDraft(await this.templates.render(workspaceId, action.template_id, action.parameters)));
      case 'answer_from_knowledge': {
        const article = await this.knowledge.answer(workspaceId, message.content, action.min_rank);
        return article ? this.reply(context, textDraft(article.body)) : 'no answer';
      }
      case 'assign':
        await this.conversationActions.assign(automationActor(workspaceId), message.conversationId, action.user_id);
        return 'done';
      case 'mark_read':
        await this.conversationActions.markRead(automationActor(workspaceId), message.conversationId);
        return 'done';
      case 'add_label':
        await this.labels.labelConversation(automationActor(workspaceId), message.conversationId, action.label_id);
        return 'done';
      case 'set_status':
        await this.statuses.setStatus(automationActor(workspaceId), message.conversationId, { status: action.status, snoozeMinutes: action.snooze_minutes });
        return 'done';
    }
  }

  /**
   * A reply needs the channel connected now, and a free slot of the loop guard (taken last, so a
   * reply that cannot go out uses none). A send the channel refuses is stored as `failed`.
   */
  private async reply(context: ActionContext, draft: OutgoingDraft): Promise<ActionOutcome> {
    const { workspaceId, message } = context;
    const conversation = await this.conversations.find(workspaceId, null, message.conversationId);
    if (!conversation) return 'conversation gone';
    const gateway = await this.channels.connected(workspaceId, conversation.channel);
    if (!gateway) return 'not connected';
    if (!(await this.guard.take(conversation.id, `${message.id}:${context.automationId}:${context.index}`))) return 'loop guard';
    await this.sender.deliver(workspaceId, conversation, gateway, draft, 'automation');
    this.logger.debug({ workspaceId, conversationId: conversation.id, automationId: context.automationId }, 'automated reply sent');
    return 'done';
  }
}
