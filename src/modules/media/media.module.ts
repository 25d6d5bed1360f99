import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { AppConfig } from '../../infra/config/app-config.js';
import { LocalMediaStore } from './local-media.store.js';
import { MediaAccessRepository } from './media-access.repository.js';
import { MediaController } from './media.controller.js';
import { mediaSecurityHeaders } from './media-response-headers.js';
import { MEDIA_STORE, type MediaStore } from './media-store.port.js';
import { MediaService } from './media.service.js';

/**
 * MEDIA_STORE picks the store. The S3 one is imported only when chosen, so a single-machine
 * set-up never loads the AWS SDK.
 */
async function createMediaStore(config: AppConfig): Promise<MediaStore> {
  if (config.mediaStore !== 's3') return new LocalMediaStore(config);
  const { S3MediaStore } = await import('./s3-media.store.js');
  return new S3MediaStore(config.s3!);
}

/**
 * Media storage and serving (docs/contract.md#modules): channels write downloaded files through
 * `MEDIA_STORE`; members read them at `GET /api/media/<workspace>/<file>`, every answer (a 401 and
 * a 404 too) with the headers of `media-response-headers.ts`.
 */
@Module({
  controllers: [MediaController],
  providers: [MediaService, MediaAccessRepository, { provide: MEDIA_STORE, inject: [AppConfig], useFactory: createMediaStore }],
  exports: [MEDIA_STORE],
})
export class MediaModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(mediaSecurityHeaders).forRoutes(MediaController);
  }
}
