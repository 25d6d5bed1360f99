import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../infra/config/app-config.js';
import { REDIS, RedisKeys } from '../infra/redis/redis.module.js';
import { PostgresScanAuthStorageFactory } from '../modules/chat/auth-state/postgres-scan-auth.storage.js';
import { ScanAuthRepository } from '../modules/chat/auth-state/scan-auth.repository.js';
import { SCAN_AUTH_STORAGE } from '../modules/chat/driver/scan-driver.port.js';
import { PlacementService } from '../modules/chat/placement/placement.service.js';
import { WorkerMembershipStore } from '../modules/chat/placement/worker-membership.store.js';
import { ScanControlBus } from '../modules/chat/session/scan-control.bus.js';
import { ScanControlService } from '../modules/chat/session/scan-control.service.js';
import { ScanLeases } from '../modules/chat/session/scan-leases.js';
import { ScanLiveStateStore } from '../modules/chat/session/scan-live-state.store.js';
import { ScanSessionRepository } from '../modules/chat/session/scan-session.repository.js';
import { ScanStateService } from '../modules/chat/session/scan-state.service.js';
import { ScanStatusHooksModule } from '../modules/chat/session/scan-status-hooks.module.js';
import { SyncProgressStore } from '../modules/chat/session/sync-progress.store.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from '../modules/events/live-events.options.js';
import { LiveEventsService } from '../modules/events/live-events.service.js';
import { WorkspaceHooksModule } from '../modules/tenants/workspaces/workspace-hooks.module.js';
import { WorkspaceRepository } from '../modules/tenants/workspaces/workspace.repository.js';
import { SessionCommands } from './session-commands.service.js';

/**
 * What the CLI's session commands need of the scan channel: its control path (the control bus,
 * leases, the session row, the live state and its `session.updated` events), never a socket. The
 * CLI's bus is a client only, whatever ROLE says: it asks workers and never answers as one.
 */
@Module({
  imports: [WorkspaceHooksModule, ScanStatusHooksModule],
  providers: [
    {
      provide: ScanControlBus,
      inject: [AppConfig, RedisKeys, REDIS],
      useFactory: (config: AppConfig, keys: RedisKeys, redis: Redis) =>
        new ScanControlBus(Object.create(config, { role: { value: 'api' } }) as AppConfig, keys, redis),
    },
    ScanControlService,
    ScanLeases,
    ScanSessionRepository,
    ScanLiveStateStore,
    ScanStateService,
    SyncProgressStore,
    ScanAuthRepository,
    { provide: SCAN_AUTH_STORAGE, useClass: PostgresScanAuthStorageFactory },
    LiveEventsService,
    { provide: LIVE_EVENTS_OPTIONS, useValue: DEFAULT_LIVE_EVENTS_OPTIONS },
    WorkspaceRepository,
    WorkerMembershipStore,
    PlacementService,
    SessionCommands,
  ],
  exports: [SessionCommands],
})
export class CliSessionsModule {}
