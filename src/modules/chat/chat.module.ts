import { Module } from '@nestjs/common';
import { SyncProgressStore } from './session/sync-progress.store.js';

/**
 * The scan channel (architecture.md, "chat/"): the Baileys driver behind `ScanDriver`
 * (`driver/`), the session manager holding one socket per workspace under a Redis lease
 * (`session/`), and the inbox side of its events (`inbound/`).
 */
@Module({
  providers: [SyncProgressStore],
  exports: [SyncProgressStore],
})
export class ChatModule {}
