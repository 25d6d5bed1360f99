import { Module } from '@nestjs/common';
import { WorkspaceHooks } from './workspace-hooks.js';

/** Its own small module, so the operator CLI shares the one registry with the hooks it loads. */
@Module({ providers: [WorkspaceHooks], exports: [WorkspaceHooks] })
export class WorkspaceHooksModule {}
