import { ConversationActivityEntity } from './entities/conversation-activity.entity.js';

/** The tables the reports module owns; gathered with the other modules' in `src/entities.ts`. */
export const REPORTS_ENTITIES = [ConversationActivityEntity];
