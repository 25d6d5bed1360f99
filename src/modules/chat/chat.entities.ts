import type { EntityClass } from '../../infra/database/data-source-options.js';
import { ScanAuthKeyEntity } from './auth-state/entities/scan-auth-key.entity.js';
import { ScanNumberCheckEntity } from './check/entities/scan-number-check.entity.js';
import { ScanHistoryBatchEntity } from './inbound/entities/scan-history-batch.entity.js';
import { ScanMediaRefEntity } from './inbound/entities/scan-media-ref.entity.js';
import { ScanProxyEntity } from './proxy/entities/scan-proxy.entity.js';
import { ScanSessionEntity } from './session/entities/scan-session.entity.js';

/** The chat module's TypeORM entities, gathered by `src/entities.ts`. */
export const CHAT_ENTITIES: readonly EntityClass[] = [
  ScanAuthKeyEntity,
  ScanSessionEntity,
  ScanMediaRefEntity,
  ScanHistoryBatchEntity,
  ScanProxyEntity,
  ScanNumberCheckEntity,
];
