import type { DataSource } from 'typeorm';
import { sqlDialectOf } from './dialect-of';
import type { Queryable, Statement } from './statements';

/**
 * Runs `statements` in order in the caller's transaction and reads each one's result. Where the
 * DataSource's dialect says one query may carry several statements (a MySQL pool with
 * `multipleStatements`, which mysqlDataSourceOptions turns on; every value still travels as an
 * escaped placeholder), they travel as one query and cost one round trip instead of one each.
 * Elsewhere (a MySQL pool without the flag, PostgreSQL, a Queryable whose DataSource is
 * unknown) they run one query each. Either way the server runs them in order and stops at the
 * first that fails, whose error the call rejects with. Then each result is read in order; a
 * `read` that throws ends the call with its error (the caller's transaction then rolls back, as
 * it would have before the later statements ran).
 */
export async function runStatements<T extends unknown[]>(
  manager: Queryable,
  statements: { [K in keyof T]: Statement<T[K]> },
): Promise<T> {
  const list = statements as Statement<unknown>[];
  if (list.length === 0) return [] as unknown as T;
  const results =
    list.length > 1 && inOneQuery(manager)
      ? await sendAsOneQuery(manager, list)
      : await sendOneByOne(manager, list);
  return list.map((statement, i) => statement.read(results[i])) as T;
}

/** The statements' raw results, sent as one multi-statement query. */
async function sendAsOneQuery(manager: Queryable, list: Statement<unknown>[]): Promise<unknown[]> {
  const raw = await manager.query(
    list.map((s) => s.sql).join(';\n'),
    list.flatMap((s) => s.params),
  );
  // mysql2 gives one statement's result as it is, several as an array of results.
  return list.length === 1 ? [raw] : (raw as unknown[]);
}

/** The statements' raw results, sent one query each, stopping at the first that fails. */
async function sendOneByOne(manager: Queryable, list: Statement<unknown>[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of list) results.push(await manager.query(statement.sql, statement.params));
  return results;
}

/** True when the DataSource of an EntityManager or QueryRunner lets one query carry several. */
function inOneQuery(manager: Queryable): boolean {
  const connection = (manager as { connection?: Pick<DataSource, 'options'> }).connection;
  return connection?.options !== undefined && allowsMultipleStatements(connection);
}

/** True when `dataSource`'s dialect lets one query carry several statements (see SqlDialect). */
export function allowsMultipleStatements(dataSource: Pick<DataSource, 'options'>): boolean {
  return sqlDialectOf(dataSource).severalStatementsPerQuery(dataSource);
}
