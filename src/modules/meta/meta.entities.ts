import type { EntityClass } from '../../infra/database/data-source-options.js';
import { MetaCallbackEntity } from './callback/entities/meta-callback.entity.js';
import { MetaSettingsEntity } from './settings/entities/meta-settings.entity.js';

/** The meta module's TypeORM entities, gathered by `src/entities.ts`. */
export const META_ENTITIES: readonly EntityClass[] = [MetaSettingsEntity, MetaCallbackEntity];
