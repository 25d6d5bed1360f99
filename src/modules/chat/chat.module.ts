import { Module } from '@nestjs/common';
import {
  PlaceholderScanAuthStorageFactory,
  PlaceholderScanDriver,
  PlaceholderScanSessions,
} from './chat-seams.placeholder.js';
import { SCAN_AUTH_STORAGE, SCAN_DRIVER } from './driver/scan-driver.port.js';
import { ScanEventHandler, ScanSessions } from './session/scan-sessions.port.js';
import { SyncProgressStore } from './session/sync-progress.store.js';
import { HistorySyncProcessor } from './inbound/history-sync.processor.js';
import { LidLinkService } from './inbound/lid-link.service.js';
import { MediaDownloadProcessor } from './inbound/media-download.processor.js';
import { ScanChannelGateway } from './inbound/scan-channel.gateway.js';
import { ScanInboundHandler } from './inbound/scan-inbound.handler.js';
import { ScanInboundRepository } from './inbound/scan-inbound.repository.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { MediaModule } from '../media/media.module.js';

/**
 * The scan channel (architecture.md, "chat/"): the Baileys driver behind `ScanDriver`
 * (`driver/`), the session manager holding one socket per workspace under a Redis lease
 * (`session/`), and the inbox side of its events (`inbound/`).
 */
@Module({
  imports: [InboxModule, MediaModule],
  providers: [
    SyncProgressStore,
    // chat-driver replaces this line with the Baileys adapter.
    { provide: SCAN_DRIVER, useClass: PlaceholderScanDriver },
    // chat-driver replaces this line with the Postgres auth-state store.
    { provide: SCAN_AUTH_STORAGE, useClass: PlaceholderScanAuthStorageFactory },
    // chat-session replaces this line with the session manager.
    { provide: ScanSessions, useClass: PlaceholderScanSessions },
    { provide: ScanEventHandler, useClass: ScanInboundHandler },
    // The inbound side (chat/inbound): history and media jobs, LID links, the scan ChannelGateway.
    ScanInboundRepository,
    LidLinkService,
    HistorySyncProcessor,
    MediaDownloadProcessor,
    ScanChannelGateway,
  ],
  exports: [SyncProgressStore, SCAN_DRIVER, SCAN_AUTH_STORAGE, ScanSessions, ScanEventHandler],
})
export class ChatModule {}
