import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { type IngestHook, IngestHooks } from '../ingest/ingest-hooks.js';
import type { InboxChange, InboxChangeKind, InboxChangeOf } from './inbox-change.js';

/**
 * What another module writes beside an inbox change, in the change's own transaction: the webhook
 * outbox's event and delivery rows, so the change and its events commit together or not at all.
 */
export interface InboxChangeHook {
  /** The changes it writes for. No other reaches it, and a change no hook takes opens no transaction. */
  readonly changes: readonly InboxChangeKind[];
  /**
   * Whether it takes part in this workspace's change (default: yes). A hook that concerns only
   * some workspaces answers false for the others, so their writes stay as cheap as without it.
   */
  wantsTransaction?(workspaceId: string, kind: InboxChangeKind): Promise<boolean>;
  /** In the change's transaction, after the change was written: a failure rolls the change back. */
  inTransaction(workspaceId: string, tx: SqlExecutor, change: InboxChange): Promise<void>;
  /**
   * After the commit; failures are logged, never raised. A hook that carries something from
   * `inTransaction` to here keys it by the change's message (or conversation) object: ingest
   * hands both calls the same message, not the same change object.
   */
  afterCommit?(workspaceId: string, change: InboxChange): Promise<void>;
}

/**
 * `message.ingested` goes through `IngestHooks`, ingest's own face of this port (group commit,
 * held media): one message at a time for a hook registered here, which ingest sees like any of its
 * own hooks (`participants`, the group's transaction, after its commit).
 */
const asIngestHook = (hook: InboxChangeHook): IngestHook => ({
  wantsTransaction: (workspaceId) => hook.wantsTransaction?.(workspaceId, 'message.ingested') ?? Promise.resolve(true),
  inTransaction: (event) => hook.inTransaction(event.workspaceId, event.tx, event),
  afterCommit: hook.afterCommit && ((event) => hook.afterCommit!(event.workspaceId, event)),
});

/**
 * The inbox's transactional hooks: every inbox write path that commits a change (InboxChange)
 * runs the hooks registered for its kind inside its transaction, and their after-commit part once
 * it committed. Other modules register from their `onModuleInit` (the inbox cannot import them).
 * A path whose change no hook takes runs exactly as it would without this port: its one statement,
 * no transaction (`apply`).
 */
@Injectable()
export class InboxChangeHooks extends HookRegistry<InboxChangeHook> {
  private readonly logger = new Logger('InboxChangeHooks');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ingest: IngestHooks,
  ) {
    super();
  }

  override register(hook: InboxChangeHook): () => void {
    const removals = [super.register(hook)];
    if (hook.changes.includes('message.ingested')) removals.push(this.ingest.register(asIngestHook(hook)));
    return () => {
      for (const remove of removals) remove();
    };
  }

  /** The hooks taking part in this workspace's change of `kind`, in registration order. */
  async participants(workspaceId: string, kind: InboxChangeKind): Promise<InboxChangeHook[]> {
    const chosen: InboxChangeHook[] = [];
    for (const hook of this.hooks) {
      if (hook.changes.includes(kind) && ((await hook.wantsTransaction?.(workspaceId, kind)) ?? true)) chosen.push(hook);
    }
    return chosen;
  }

  /** In the change's transaction `tx`: a failure rolls it back. */
  async inTransaction(workspaceId: string, tx: SqlExecutor, change: InboxChange, participants?: readonly InboxChangeHook[]): Promise<void> {
    for (const hook of participants ?? (await this.participants(workspaceId, change.kind))) await hook.inTransaction(workspaceId, tx, change);
  }

  /** The change is committed: a failure must not fail the request (the outbox's sweeper picks up what is left). */
  async afterCommit(workspaceId: string, change: InboxChange, participants: readonly InboxChangeHook[]): Promise<void> {
    for (const hook of participants) {
      try {
        await hook.afterCommit?.(workspaceId, change);
      } catch (error) {
        this.logger.error({ err: error, workspaceId, change: change.kind }, 'after-commit hook failed');
      }
    }
  }

  /**
   * An inbox write and its hooks. With no hook for `kind` (the common case) `write` runs without a
   * transaction (`tx` undefined: the repository's own single statement, as before this port).
   * Otherwise `write` gets a transaction, `changeOf` names what it changed (null: nothing, e.g. an
   * unknown row), the hooks write in that transaction, and their after-commit part runs after it.
   */
  async apply<K extends InboxChangeKind, T>(
    workspaceId: string,
    kind: K,
    write: (tx: SqlExecutor | undefined) => Promise<T>,
    changeOf: (written: T) => InboxChangeOf<K> | null,
  ): Promise<T> {
    // Checked before any await: without a hook for the kind, the write costs what it always did.
    if (!this.hooks.some((hook) => hook.changes.includes(kind))) return write(undefined);
    const participants = await this.participants(workspaceId, kind);
    if (participants.length === 0) return write(undefined);
    const { written, change } = await inTransaction(this.db, async (tx) => {
      const result = await write(tx);
      const made = changeOf(result);
      if (made) await this.inTransaction(workspaceId, tx, made, participants);
      return { written: result, change: made };
    });
    if (change) await this.afterCommit(workspaceId, change, participants);
    return written;
  }

  /** As `apply`, but `write` always gets a transaction: its several writes land together or not at all. */
  async applyAtomic<K extends InboxChangeKind, T>(
    workspaceId: string,
    kind: K,
    write: (tx: SqlExecutor) => Promise<T>,
    changeOf: (written: T) => InboxChangeOf<K> | null,
  ): Promise<T> {
    const participants = this.hooks.some((hook) => hook.changes.includes(kind)) ? await this.participants(workspaceId, kind) : [];
    const { written, change } = await inTransaction(this.db, async (tx) => {
      const result = await write(tx);
      const made = participants.length > 0 ? changeOf(result) : null;
      if (made) await this.inTransaction(workspaceId, tx, made, participants);
      return { written: result, change: made };
    });
    if (change) await this.afterCommit(workspaceId, change, participants);
    return written;
  }
}
