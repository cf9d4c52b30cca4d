import type { DataSource, QueryRunner } from 'typeorm';
import { allowsMultipleStatements } from './run-statements';
import type { Queryable, Statement } from './statements';

/** The isolation levels both engines take in a transaction. */
export type TransactionIsolation = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/** A transaction in progress, whose last statements may travel with its COMMIT. */
export interface CommittingTransaction extends Queryable {
  /**
   * Runs `statements` in order, then commits, and reads each statement's result. Where one
   * query may carry several statements, the statements and the COMMIT are one round trip;
   * elsewhere, one query each, then COMMIT. Either way the server stops at the first that fails,
   * and the transaction then rolls back. Nothing may be sent in the transaction after it.
   */
  commitWith<T extends unknown[]>(statements: { [K in keyof T]: Statement<T[K]> }): Promise<T>;
}

/**
 * Runs `work` in one transaction at `isolation`, on a connection of its own, and commits it:
 * with the statements `work` hands to `commitWith`, or alone once `work` resolves without
 * calling it. If `work` or a statement fails, the transaction rolls back and the call rejects
 * with that error. No retry: the caller decides what a failure means.
 *
 * A short transaction of lock, read, write (the relay's claim) thus costs two round trips on
 * MySQL and MariaDB, the START TRANSACTION and its isolation level travelling with the first
 * statement (deferred-begin.ts) and the last statements with the COMMIT, instead of one per
 * statement and two more around them.
 */
export async function transactionCommittingWith<T>(
  dataSource: DataSource,
  isolation: TransactionIsolation,
  work: (transaction: CommittingTransaction) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  // Only on a DataSource whose queries may carry several statements does the COMMIT travel in
  // the same query as the statements before it, sent as text: TypeORM's runner then never
  // learns of the transaction, so the transaction's whole life is sent as text there.
  const asText = allowsMultipleStatements(dataSource);
  let open = true;
  try {
    if (asText) {
      await runner.query(`SET TRANSACTION ISOLATION LEVEL ${isolation}`);
      await runner.query('START TRANSACTION');
    } else {
      await runner.startTransaction(isolation);
    }
    const transaction: CommittingTransaction = {
      query: (sql, params) => runner.query(sql, params),
      commitWith: async <R extends unknown[]>(statements: { [K in keyof R]: Statement<R[K]> }) => {
        const list = statements as Statement<unknown>[];
        const results = asText
          ? await withCommitInOneQuery(runner, list)
          : await oneByOneThenCommit(runner, list);
        open = false;
        return list.map((statement, i) => statement.read(results[i])) as R;
      },
    };
    const result = await work(transaction);
    if (open) {
      if (asText) await runner.query('COMMIT');
      else await runner.commitTransaction();
      open = false;
    }
    return result;
  } catch (error) {
    if (open) {
      // A broken connection fails this too; the error that matters is the first one.
      const rollback = asText ? runner.query('ROLLBACK') : runner.rollbackTransaction();
      await rollback.catch(() => undefined);
    }
    throw error;
  } finally {
    await runner.release();
  }
}

/** The statements' raw results, sent with COMMIT as one multi-statement query. */
async function withCommitInOneQuery(
  runner: QueryRunner,
  list: Statement<unknown>[],
): Promise<unknown[]> {
  if (list.length === 0) {
    await runner.query('COMMIT');
    return [];
  }
  const raw = (await runner.query(
    [...list.map((s) => s.sql), 'COMMIT'].join(';\n'),
    list.flatMap((s) => s.params),
  )) as unknown[];
  // One result per statement, then the COMMIT's (mysql2 answers several as an array).
  return raw.slice(0, list.length);
}

/** The statements' raw results, one query each, then TypeORM's COMMIT. */
async function oneByOneThenCommit(
  runner: QueryRunner,
  list: Statement<unknown>[],
): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of list) results.push(await runner.query(statement.sql, statement.params));
  await runner.commitTransaction();
  return results;
}
