import { DataSource, EntityManager } from 'typeorm';
import { backoffDelay, BackoffPolicy, delay } from './backoff';
import { isTransientDbError } from './transient-error';

/** How `runTransaction` retries a transaction that failed for a transient reason. */
export interface TransactionRetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

export const DEFAULT_TRANSACTION_RETRY: TransactionRetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 10,
  maxDelayMs: 500,
};

/**
 * Runs `work` in one transaction and retries it whole, with backoff, when it
 * fails for a transient reason (deadlock, lock-wait timeout, lost connection). After a
 * lock-wait timeout MySQL rolls back only the statement, so the transaction is abandoned and
 * started again rather than continued. `work` must therefore be safe to run again: it may
 * only touch the database through `manager`. Other errors propagate at once.
 *
 * The transaction runs at the session's isolation level: READ COMMITTED on every connection of
 * a DataSource built by `mysqlDataSourceOptions` (set once per connection, which saves a round
 * trip per transaction). Correctness does not rest on it: unique keys, compare-and-set and
 * locking reads carry it at any level.
 */
export async function runTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  policy: TransactionRetryPolicy = DEFAULT_TRANSACTION_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dataSource.transaction(work);
    } catch (error) {
      if (attempt >= policy.maxAttempts || !isTransientDbError(error)) throw error;
      await delay(backoffDelay(policy, attempt));
    }
  }
}
