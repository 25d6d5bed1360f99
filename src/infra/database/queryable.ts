/**
 * What a repository method needs to run SQL: the DataSource, or the EntityManager of a transaction
 * the service opened, so several steps can share one transaction without leaking TypeORM types.
 */
export interface Queryable {
  query<T>(sql: string, parameters?: unknown[]): Promise<T>;
}

/** Postgres answers UPDATE/DELETE through TypeORM as `[rows, affectedCount]`. */
export type ModifyResult<T> = [T[], number];
