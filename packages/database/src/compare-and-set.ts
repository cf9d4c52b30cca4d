import { affectedRows } from './affected-rows';
import { postgresAffectedRows } from './postgres/postgres-affected-rows';
import type { SqlEngine } from './sql-dialect';
import type { Statement } from './statements';

/** What `compareAndSet` writes, and where. */
export interface CompareAndSet {
  table: string;
  /** The new values, column → value. */
  set: Record<string, unknown>;
  /**
   * The row and what must still hold for the write to happen, column → value: its id and the
   * version the caller read, say.
   */
  expected: Record<string, unknown>;
  /** The error the statement's `read` throws when no row matched: somebody got there first. */
  lost: () => Error;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`compareAndSet: "${name}" is not a plain identifier`);
  return name;
}

/**
 * A compare-and-set UPDATE as a statement, to run alone or with others in one round trip
 * (runStatements): `UPDATE table SET … WHERE <expected>`, whose `read` throws `lost()` unless
 * exactly one row changed. The caller's transaction then rolls back what went with it, and
 * runs again on fresh state. Correctness rests on the condition, not on the isolation level.
 * `engine` picks the placeholders: mysql2's `?` (the default) or node-postgres's `$n`.
 */
export function compareAndSet(
  { table, set, expected, lost }: CompareAndSet,
  engine: SqlEngine = 'mysql',
): Statement {
  let n = 0;
  const placeholder = () => (engine === 'postgres' ? `$${++n}` : '?');
  const assignments = Object.keys(set).map((column) => `${identifier(column)} = ${placeholder()}`);
  const conditions = Object.keys(expected).map(
    (column) => `${identifier(column)} = ${placeholder()}`,
  );
  if (assignments.length === 0 || conditions.length === 0) {
    throw new Error('compareAndSet needs at least one column to set and one to expect');
  }
  const changed = engine === 'postgres' ? postgresAffectedRows : affectedRows;
  return {
    sql: `UPDATE ${identifier(table)} SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')}`,
    params: [...Object.values(set), ...Object.values(expected)],
    read: (result) => {
      if (changed(result) !== 1) throw lost();
    },
  };
}
