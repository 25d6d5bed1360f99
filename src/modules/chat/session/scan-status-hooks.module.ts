import { Module } from '@nestjs/common';
import { ScanStatusHooks } from './scan-status-hooks.js';

/** Just the registry, so that a module the chat module cannot import (webhooks) can register with it. */
@Module({ providers: [ScanStatusHooks], exports: [ScanStatusHooks] })
export class ScanStatusHooksModule {}
