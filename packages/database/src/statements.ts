import type { DataSource } from 'typeorm';

/** One SQL statement, its values, and how to read its own result. */
export interface Statement<T = void> {
  sql: string;
  params: unknown[];
  /**
   * Turns the statement's result (its rows, or the OK packet of a write) into `T`. It may throw:
   * a compare-and-set that changed no row, for example.
   */
  read: (result: unknown) => T;
}

/** What runs a query: an EntityManager or a QueryRunner of the caller's transaction. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Runs `statements` in order in the caller's transaction and reads each one's result. On MySQL
 * they travel as one query, so they cost one round trip instead of one each (the connection
 * needs `multipleStatements`, which mysqlDataSourceOptions turns on; every value still travels
 * as an escaped placeholder). On PostgreSQL, whose extended protocol takes one statement per
 * query, they run one by one. Either way the server runs them in order and stops at the first
 * that fails, whose error the call rejects with, as it would have one by one. Then each result
 * is read in order; a `read` that throws ends the call with its error (the caller's
 * transaction then rolls back, as it would have before the later statements ran).
 */
export async function runStatements<T extends unknown[]>(
  manager: Queryable,
  statements: { [K in keyof T]: Statement<T[K]> },
): Promise<T> {
  const list = statements as Statement<unknown>[];
  if (list.length === 0) return [] as unknown as T;
  const results = onPostgres(manager)
    ? await sendOneByOne(manager, list)
    : await sendAsOneQuery(manager, list);
  return list.map((statement, i) => statement.read(results[i])) as T;
}

/** The statements' raw results, sent as one multi-statement query. */
export async function sendAsOneQuery(
  manager: Queryable,
  list: Statement<unknown>[],
): Promise<unknown[]> {
  const raw = await manager.query(
    list.map((s) => s.sql).join(';\n'),
    list.flatMap((s) => s.params),
  );
  // mysql2 gives one statement's result as it is, several as an array of results.
  return list.length === 1 ? [raw] : (raw as unknown[]);
}

/** The statements' raw results, sent one query each, stopping at the first that fails. */
export async function sendOneByOne(
  manager: Queryable,
  list: Statement<unknown>[],
): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of list) results.push(await manager.query(statement.sql, statement.params));
  return results;
}

/** True for an EntityManager or QueryRunner of a PostgreSQL DataSource. */
function onPostgres(manager: Queryable): boolean {
  const owner = manager as { connection?: { options?: { type?: string } } };
  return owner.connection?.options?.type === 'postgres';
}

/** True when `dataSource`'s pool lets one query carry several statements. */
export function allowsMultipleStatements(dataSource: DataSource): boolean {
  const options = dataSource.options as {
    multipleStatements?: boolean;
    extra?: { multipleStatements?: boolean };
  };
  return (options.extra?.multipleStatements ?? options.multipleStatements) === true;
}
