import { Module } from '@nestjs/common';
import { PostgresScanAuthStorageFactory } from './auth-state/postgres-scan-auth.storage.js';
import { ScanAuthRepository } from './auth-state/scan-auth.repository.js';
import { LazyBaileysScanDriver } from './driver/baileys/lazy-baileys-scan.driver.js';
import { SCAN_AUTH_STORAGE, SCAN_DRIVER } from './driver/scan-driver.port.js';
import { ScanEventHandler, ScanSessions } from './session/scan-sessions.port.js';
import { SyncProgressStore } from './session/sync-progress.store.js';
import { ChatController } from './chat.controller.js';
import { NumberCheckController } from './check/number-check.controller.js';
import { NumberCheckRepository } from './check/number-check.repository.js';
import { NumberCheckService } from './check/number-check.service.js';
import { ScanProxyController } from './proxy/scan-proxy.controller.js';
import { ScanProxyRepository } from './proxy/scan-proxy.repository.js';
import { ScanProxyService } from './proxy/scan-proxy.service.js';
import { SCAN_PROXY_SOURCE } from './proxy/scan-proxy.source.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { MediaModule } from '../media/media.module.js';
import { HistorySyncProcessor } from './inbound/history-sync.processor.js';
import { LidLinkService } from './inbound/lid-link.service.js';
import { MediaDownloadProcessor } from './inbound/media-download.processor.js';
import { ScanChannelGateway } from './inbound/scan-channel.gateway.js';
import { ScanInboundHandler } from './inbound/scan-inbound.handler.js';
import { ScanInboundRepository } from './inbound/scan-inbound.repository.js';
import { ScanControlBus } from './session/scan-control.bus.js';
import { ScanControlService } from './session/scan-control.service.js';
import { ScanLeases } from './session/scan-leases.js';
import { ScanLiveStateStore } from './session/scan-live-state.store.js';
import { ScanMessageLookupRepository } from './session/scan-message-lookup.repository.js';
import { ScanSessionManager } from './session/scan-session.manager.js';
import { PlacementService } from './placement/placement.service.js';
import { WorkerMembershipStore } from './placement/worker-membership.store.js';
import { ScanSessionMetrics } from './session/scan-session.metrics.js';
import { ScanSessionRepository } from './session/scan-session.repository.js';
import { ScanSessionsService } from './session/scan-sessions.service.js';
import { ScanStateService } from './session/scan-state.service.js';
import { ChatStatusService } from './session/chat-status.service.js';
import { PasskeyCeremonyService } from './passkey/passkey-ceremony.service.js';
import { PasskeyController } from './passkey/passkey.controller.js';
import { PasskeyLinksStore } from './passkey/passkey-links.store.js';
import { ScanStatusHooksModule } from './session/scan-status-hooks.module.js';

/**
 * The scan channel (docs/contract.md#modules): the Baileys driver behind `ScanDriver`
 * (`driver/`), the session manager holding one socket per workspace under a Redis lease
 * (`session/`), and the inbox side of its events (`inbound/`).
 */
@Module({
  imports: [InboxModule, MediaModule, ScanStatusHooksModule],
  controllers: [ChatController, PasskeyController, ScanProxyController, NumberCheckController],
  providers: [
    SyncProgressStore,
    // The Baileys driver, loaded on first use (api processes never load Baileys).
    { provide: SCAN_DRIVER, useClass: LazyBaileysScanDriver },
    ScanAuthRepository,
    { provide: SCAN_AUTH_STORAGE, useClass: PostgresScanAuthStorageFactory },
    { provide: ScanSessions, useClass: ScanSessionsService },
    // The session side (chat/session): leases, control bus, shared state, the socket manager.
    ScanSessionRepository,
    ScanMessageLookupRepository,
    ScanLeases,
    ScanLiveStateStore,
    ScanStateService,
    ChatStatusService,
    ScanControlBus,
    ScanControlService,
    ScanSessionManager,
    ScanSessionMetrics,
    // Where each number lives (chat/placement): the workers' membership list and the homes.
    WorkerMembershipStore,
    PlacementService,
    { provide: ScanEventHandler, useClass: ScanInboundHandler },
    // The inbound side (chat/inbound): history and media jobs, LID links, the scan ChannelGateway.
    ScanInboundRepository,
    LidLinkService,
    HistorySyncProcessor,
    MediaDownloadProcessor,
    ScanChannelGateway,
    // Each number's egress proxy (chat/proxy): the driver asks it at every connection and download.
    ScanProxyRepository,
    ScanProxyService,
    { provide: SCAN_PROXY_SOURCE, useExisting: ScanProxyService },
    // Whether a phone is on WhatsApp (chat/check): cached answers, live checks limited per minute.
    NumberCheckRepository,
    NumberCheckService,
    // WhatsApp's passkey check (chat/passkey, CHAT_PASSKEY_CEREMONY): one-time links and the ceremony's routes.
    PasskeyLinksStore,
    PasskeyCeremonyService,
  ],
  exports: [SyncProgressStore, SCAN_DRIVER, SCAN_AUTH_STORAGE, ScanSessions, ScanEventHandler],
})
export class ChatModule {}
