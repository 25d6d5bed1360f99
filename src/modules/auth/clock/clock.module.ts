import { Module } from '@nestjs/common';
import { Clock } from './clock.js';

/** One shared `Clock` for the auth and tenants modules (override it in tests). */
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
