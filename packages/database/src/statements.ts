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
 * Runs `statements` in order as one query, so they cost one round trip instead of one each
 * (the connection needs `multipleStatements`, which mysqlDataSourceOptions turns on; every value
 * still travels as an escaped placeholder). Nothing else changes: the server runs them in
 * order in the caller's transaction and stops at the first that fails, whose error the call
 * rejects with, as it would have one by one. Then each result is read in order; a `read` that
 * throws ends the call with its error (the caller's transaction then rolls back, as it would
 * have before the later statements ran).
 */
export async function runStatements<T extends unknown[]>(
  manager: Queryable,
  statements: { [K in keyof T]: Statement<T[K]> },
): Promise<T> {
  const list = statements as Statement<unknown>[];
  if (list.length === 0) return [] as unknown as T;
  const raw = await manager.query(
    list.map((s) => s.sql).join(';\n'),
    list.flatMap((s) => s.params),
  );
  // mysql2 gives one statement's result as it is, several as an array of results.
  const results = list.length === 1 ? [raw] : (raw as unknown[]);
  return list.map((statement, i) => statement.read(results[i])) as T;
}
