import type { EntityClass } from '../../infra/database/data-source-options.js';
import { AutomationTriggerEntity } from './automations/entities/automation-trigger.entity.js';
import { AutomationEntity } from './automations/entities/automation.entity.js';
import { KnowledgeArticleEntity } from './knowledge/entities/knowledge-article.entity.js';
import { QuickReplyEntity } from './quick-replies/entities/quick-reply.entity.js';
import { TemplateEntity } from './templates/entities/template.entity.js';

/** The content module's TypeORM entities, gathered by `src/entities.ts`. */
export const CONTENT_ENTITIES: readonly EntityClass[] = [TemplateEntity, KnowledgeArticleEntity, AutomationEntity, AutomationTriggerEntity, QuickReplyEntity];
