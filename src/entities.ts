import type { EntityClass } from './infra/database/data-source-options.js';
import { AUTH_ENTITIES } from './modules/auth/auth.entities.js';
import { CHAT_ENTITIES } from './modules/chat/chat.entities.js';
import { CONTENT_ENTITIES } from './modules/content/content.entities.js';
import { INBOX_ENTITIES } from './modules/inbox/inbox.entities.js';
import { META_ENTITIES } from './modules/meta/meta.entities.js';
import { REPORTS_ENTITIES } from './modules/reports/reports.entities.js';
import { TENANTS_ENTITIES } from './modules/tenants/tenants.entities.js';
import { WEBHOOKS_ENTITIES } from './modules/webhooks/webhooks.entities.js';

/**
 * Every TypeORM entity of the service: each feature module lists its own in
 * `<feature>.entities.ts`, and this one list above the features hands them to the app
 * (AppModule), the operator CLI and the TypeORM CLI (`ormconfig.ts`), so the plumbing under
 * `src/infra/` never imports a feature. Explicit lists: ESM builds cannot use directory globs.
 * A new module adds its list here (and a migration; the drift test enforces that).
 */
export const ENTITIES: readonly EntityClass[] = [
  ...AUTH_ENTITIES,
  ...TENANTS_ENTITIES,
  ...INBOX_ENTITIES,
  ...CHAT_ENTITIES,
  ...WEBHOOKS_ENTITIES,
  ...META_ENTITIES,
  ...CONTENT_ENTITIES,
  ...REPORTS_ENTITIES,
];
