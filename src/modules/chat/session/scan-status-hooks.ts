import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { ScanStatus } from './scan-state.service.js';

/** The scan number's named `state` changed (GET /api/chat/status): the status after, and before when it was read. */
export interface ScanStatusChange {
  workspaceId: string;
  status: ScanStatus;
  /** The status before the change; null when it could not be read. */
  previous: ScanStatus | null;
}

/**
 * What another module writes when the scan number's state changes: the webhook outbox's
 * `session.status` rows. The chat module cannot import the webhooks module's producers (they
 * would import the channel), so they register here from their `onModuleInit`.
 */
export interface ScanStatusHook {
  /** In the change's own transaction (opened only when some hook is registered). */
  inTransaction(tx: SqlExecutor, change: ScanStatusChange): Promise<void>;
  /** After the commit; a failure is logged. */
  afterCommit?(change: ScanStatusChange): Promise<void>;
}

/**
 * The scan session's state-change hooks. The state is already stored (Postgres, Redis) when they
 * run: a hook's failure is logged and never fails the session's own work (a reconnect, a stop),
 * which matters more than one event.
 */
@Injectable()
export class ScanStatusHooks extends HookRegistry<ScanStatusHook> {
  private readonly logger = new Logger('ScanStatusHooks');

  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async changed(change: ScanStatusChange): Promise<void> {
    if (this.hooks.length === 0) return;
    const hooks = [...this.hooks];
    try {
      await inTransaction(this.db, async (tx) => {
        for (const hook of hooks) await hook.inTransaction(tx, change);
      });
    } catch (error) {
      this.logger.error({ err: error, workspaceId: change.workspaceId, state: change.status.state }, 'state-change hook failed');
      return;
    }
    for (const hook of hooks) {
      try {
        await hook.afterCommit?.(change);
      } catch (error) {
        this.logger.error({ err: error, workspaceId: change.workspaceId }, 'after-commit state-change hook failed');
      }
    }
  }
}
