import type { DataSource, EntityManager, QueryResult } from 'typeorm';

/**
 * What a repository method needs to run SQL: the pool (outside any transaction) or the
 * transaction a service opened, so several steps can share one transaction without leaking
 * TypeORM or node-postgres types. The one executor type of the service: repositories take it,
 * whoever opens the transaction makes it (`inTransaction` and friends in sql-transaction.ts on
 * node-postgres, `sqlExecutorOf` on TypeORM's DataSource or a transaction's EntityManager).
 *
 * `name` makes the statement a prepared one, parsed and planned once per connection, which is
 * most of the cost of the ingest statements at thousands of messages per second. Executors that
 * cannot prepare (TypeORM's) run it unnamed: same answer, planned every time.
 */
export interface SqlExecutor {
  /** The rows the statement answers: a SELECT's, or a write's RETURNING rows (none without). */
  query<T>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Runs a write for its effect; answers how many rows it inserted, updated or deleted. */
  execute(sql: string, params?: unknown[], name?: string): Promise<number>;
}

/**
 * TypeORM's raw `query` answers `[rows, rowCount]` when the statement's main command is UPDATE or
 * DELETE (even with RETURNING) and plain rows otherwise; its structured result says both the
 * same way whatever the command. Errors stay TypeORM's `QueryFailedError` (the driver error's
 * `code` copied onto it, the original as `driverError`), as code catching unique violations expects.
 */
class TypeormExecutor implements SqlExecutor {
  constructor(private readonly manager: EntityManager) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return ((await this.run(sql, params)).records as T[] | undefined) ?? [];
  }

  async execute(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.run(sql, params)).affected ?? 0;
  }

  // What `EntityManager.query` does (the transaction's runner, or one of the pool's for the
  // statement), asking for the structured result.
  private async run(sql: string, params: unknown[]): Promise<QueryResult> {
    const bound = this.manager.queryRunner;
    const runner = bound ?? this.manager.dataSource.createQueryRunner();
    try {
      return await runner.query(sql, params, true);
    } finally {
      if (!bound) await runner.release();
    }
  }
}

/**
 * The executor of TypeORM's pool (a DataSource: each statement on a connection of its own, in no
 * transaction) or of a transaction's EntityManager (`db.transaction(async (manager) => ...)`).
 * Make the pool's once, in the repository's constructor, not per statement.
 */
export function sqlExecutorOf(db: DataSource | EntityManager): SqlExecutor {
  return new TypeormExecutor('manager' in db ? db.manager : db);
}

/** Runs `work` in a TypeORM transaction (BEGIN, then COMMIT, or ROLLBACK when it throws). */
export function inTypeormTransaction<T>(db: DataSource, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return db.transaction((manager) => work(sqlExecutorOf(manager)));
}
