import { Injectable, Logger } from '@nestjs/common';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import type { SqlExecutor } from '../../../infra/database/sql-executor.js';

export interface MemberRemoved {
  workspaceId: string;
  userId: string;
}

/** Work a hook leaves for after the commit (e.g. live events); its errors are logged. */
export type AfterCommit = () => Promise<void>;

/**
 * What other modules do when a member leaves a workspace. Tenants cannot import them (the inbox
 * imports tenants), so they register here from `onModuleInit` instead.
 */
export interface MemberHook {
  /** Runs in the removal's transaction (`tx`): a failure rolls the removal back. */
  memberRemoved(event: MemberRemoved & { tx: SqlExecutor }): Promise<AfterCommit | undefined>;
}

@Injectable()
export class MemberHooks extends HookRegistry<MemberHook> {
  private readonly logger = new Logger('MemberHooks');

  /** Runs every hook in the transaction; returns what they left for after the commit. */
  async memberRemoved(event: MemberRemoved & { tx: SqlExecutor }): Promise<AfterCommit[]> {
    const after: AfterCommit[] = [];
    for (const hook of this.hooks) {
      const next = await hook.memberRemoved(event);
      if (next) after.push(next);
    }
    return after;
  }

  /** The removal is committed: a failure here must not turn it into a failed request. */
  async afterCommit(work: AfterCommit[], event: MemberRemoved): Promise<void> {
    for (const step of work) {
      try {
        await step();
      } catch (error) {
        this.logger.error({ err: error, ...event }, 'after-commit step of a member removal failed');
      }
    }
  }
}
