import type { ChannelConversation, MessageTarget } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';

/** A conversation as its channel's gateway names it. */
export const toChannelConversation = (c: ConversationEntity): ChannelConversation => ({
  id: c.id,
  channel: c.channel,
  chatJid: c.chatJid,
  chatPhone: c.chatPhone,
  isGroup: c.isGroup,
});

/** A `reply_to`, a reaction's, a delete's or an edit's message that is not one of the conversation's. */
export const MESSAGE_NOT_FOUND = 'message not found';

/** A stored message as a channel names it; null while it has no channel id (pending, or failed before the channel took it). */
export function toMessageTarget(message: MessageEntity): MessageTarget | null {
  if (!message.externalId) return null;
  return {
    externalId: message.externalId,
    // Outbound rows are this number's: sent through the inbox, or from the phone (its echo).
    fromMe: message.direction === 'outbound',
    senderJid: message.senderJid,
    kind: message.messageType,
    content: message.content,
  };
}
