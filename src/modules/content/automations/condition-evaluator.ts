import { Injectable, Logger } from '@nestjs/common';
import type { ConversationEntity } from '../../inbox/entities/conversation.entity.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { messageTypeOf } from '../../inbox/message-kinds.js';
import type { Condition, ConditionOp, MatchMode } from './automation-rules.js';
import { RegexSandbox } from './regex-sandbox.js';

/** What conditions look at: the fields of docs/content.md#automations, from the message and its conversation. */
export interface MessageFacts {
  content: string;
  chat_phone: string;
  is_group: boolean;
  message_type: string;
  kind: string;
}

export const factsOf = (message: MessageEntity, conversation: ConversationEntity): MessageFacts => ({
  content: message.content,
  chat_phone: conversation.chatPhone,
  is_group: conversation.isGroup,
  message_type: messageTypeOf(message.messageType),
  kind: message.messageType,
});

/** `contains`, `equals` and `starts_with`: case-insensitive, ignoring surrounding white space. */
export function compareText(op: Exclude<ConditionOp, 'matches'>, text: string, value: string): boolean {
  const subject = text.trim().toLowerCase();
  const wanted = value.trim().toLowerCase();
  if (op === 'equals') return subject === wanted;
  if (op === 'starts_with') return subject.startsWith(wanted);
  return subject.includes(wanted);
}

@Injectable()
export class ConditionEvaluator {
  private readonly logger = new Logger('Automations');

  constructor(private readonly sandbox: RegexSandbox) {}

  /**
   * `all`: every condition holds; `any`: at least one does; no conditions: always. Conditions are
   * tested in order and stop as soon as the answer is known, so a costly pattern placed last runs
   * only when it matters.
   */
  async matches(match: MatchMode, conditions: readonly Condition[], facts: MessageFacts): Promise<boolean> {
    if (conditions.length === 0) return true;
    for (const condition of conditions) {
      const holds = await this.holds(condition, facts);
      if (match === 'any' && holds) return true;
      if (match === 'all' && !holds) return false;
    }
    return match === 'all';
  }

  private async holds(condition: Condition, facts: MessageFacts): Promise<boolean> {
    if (condition.field === 'is_group') return facts.is_group === condition.value;
    const text = facts[condition.field];
    if (condition.op !== 'matches') return compareText(condition.op, text, condition.value);
    try {
      // A pattern that runs out of time does not match.
      return (await this.sandbox.test(condition.value, text)) === true;
    } catch (error) {
      this.logger.warn({ err: error }, 'a matches condition could not be evaluated');
      return false;
    }
  }
}
