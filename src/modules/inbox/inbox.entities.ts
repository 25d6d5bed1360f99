import { ContactEntity } from './entities/contact.entity.js';
import { ConversationEntity } from './entities/conversation.entity.js';
import { MessageEntity } from './entities/message.entity.js';
import { PendingMessageUpdateEntity } from './entities/pending-message-update.entity.js';
import { LabelEntity } from './labels/entities/label.entity.js';
import { ConversationNoteEntity } from './notes/entities/conversation-note.entity.js';
import { FirstContactEntity } from './outbound/entities/first-contact.entity.js';
import { OutboundQueueEntity } from './outbound/entities/outbound-queue.entity.js';
import { SendSettingsEntity } from './outbound/entities/send-settings.entity.js';

/** The tables the inbox module owns; gathered with the other modules' in `src/entities.ts`. */
export const INBOX_ENTITIES = [
  ContactEntity,
  ConversationEntity,
  MessageEntity,
  PendingMessageUpdateEntity,
  ConversationNoteEntity,
  LabelEntity,
  OutboundQueueEntity,
  SendSettingsEntity,
  FirstContactEntity,
];
