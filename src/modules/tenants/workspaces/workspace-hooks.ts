import { Injectable } from '@nestjs/common';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import type { SqlExecutor } from '../../../infra/database/sql-executor.js';

export interface WorkspaceCreated {
  workspaceId: string;
  /** The creating transaction: what a hook writes commits (or rolls back) with the workspace. */
  tx: SqlExecutor;
}

/** What other modules set up for every new workspace (e.g. the webhook signing secret). */
export interface WorkspaceHook {
  workspaceCreated(event: WorkspaceCreated): Promise<void>;
}

/**
 * Hooks run inside the transaction that creates a workspace (API and operator CLI alike); a
 * failure rolls the creation back. Modules that tenants cannot import register here.
 */
@Injectable()
export class WorkspaceHooks extends HookRegistry<WorkspaceHook> {
  async workspaceCreated(event: WorkspaceCreated): Promise<void> {
    for (const hook of this.hooks) await hook.workspaceCreated(event);
  }
}
