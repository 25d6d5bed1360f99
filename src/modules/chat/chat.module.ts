import { Module } from '@nestjs/common';
import { PlaceholderScanEventHandler, PlaceholderScanSessions } from './chat-seams.placeholder.js';
import { PostgresScanAuthStorageFactory } from './auth-state/postgres-scan-auth.storage.js';
import { ScanAuthRepository } from './auth-state/scan-auth.repository.js';
import { LazyBaileysScanDriver } from './driver/baileys/lazy-baileys-scan.driver.js';
import { SCAN_AUTH_STORAGE, SCAN_DRIVER } from './driver/scan-driver.port.js';
import { ScanEventHandler, ScanSessions } from './session/scan-sessions.port.js';
import { SyncProgressStore } from './session/sync-progress.store.js';

/**
 * The scan channel (architecture.md, "chat/"): the Baileys driver behind `ScanDriver`
 * (`driver/`), the session manager holding one socket per workspace under a Redis lease
 * (`session/`), and the inbox side of its events (`inbound/`).
 */
@Module({
  providers: [
    SyncProgressStore,
    // The Baileys driver, loaded on first use (api processes never load Baileys).
    { provide: SCAN_DRIVER, useClass: LazyBaileysScanDriver },
    ScanAuthRepository,
    { provide: SCAN_AUTH_STORAGE, useClass: PostgresScanAuthStorageFactory },
    // chat-session replaces this line with the session manager.
    { provide: ScanSessions, useClass: PlaceholderScanSessions },
    // chat-inbound replaces this line with the inbound handler.
    { provide: ScanEventHandler, useClass: PlaceholderScanEventHandler },
  ],
  exports: [SyncProgressStore, SCAN_DRIVER, SCAN_AUTH_STORAGE, ScanSessions, ScanEventHandler],
})
export class ChatModule {}
