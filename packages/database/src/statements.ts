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
