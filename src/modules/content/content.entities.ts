import type { EntityClass } from '../../infra/database/data-source-options.js';
import { TemplateEntity } from './templates/entities/template.entity.js';

/** The content module's TypeORM entities, gathered by `src/entities.ts`. */
export const CONTENT_ENTITIES: readonly EntityClass[] = [TemplateEntity];
