import { type DynamicModule, Module } from '@nestjs/common';
import { AppModule } from '../../src/app.module.js';
import type { AppConfig } from '../../src/infra/config/app-config.js';
import { TenantsModule } from '../../src/modules/tenants/tenants.module.js';
import { BenchPublicController } from './bench-public.controller.js';

/** The whole app plus the bench's public twin of `GET /api/workspace`. */
@Module({})
export class BenchAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: BenchAppModule, imports: [AppModule.forRoot(config), TenantsModule], controllers: [BenchPublicController] };
  }
}
