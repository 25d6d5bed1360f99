import { Module } from '@nestjs/common';
import { LocalMediaStore } from './local-media.store.js';
import { MediaController } from './media.controller.js';
import { MEDIA_STORE } from './media-store.port.js';
import { MediaService } from './media.service.js';

/**
 * Media storage and serving (architecture.md, "media/"): channels write downloaded files through
 * `MEDIA_STORE`; members read them at `GET /api/media/<workspace>/<file>`.
 */
@Module({
  controllers: [MediaController],
  providers: [MediaService, { provide: MEDIA_STORE, useClass: LocalMediaStore }],
  exports: [MEDIA_STORE],
})
export class MediaModule {}
