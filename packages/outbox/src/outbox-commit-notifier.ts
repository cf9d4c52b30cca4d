import {
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

/**
 * Wakes the relay of this process the moment a transaction that wrote outbox rows commits,
 * so the first publish does not wait for the next poll. It is a TypeORM subscriber (added to
 * `dataSource.subscribers`) rather than a wrapper around `transaction()`, so callers keep using
 * their own transaction helpers (runTransaction, @Transactional, plain `dataSource.transaction`).
 * A savepoint release also fires "after commit": only the outermost commit counts.
 */
export class OutboxCommitNotifier implements EntitySubscriberInterface {
  private readonly pending = new WeakSet<QueryRunner>();
  private readonly listeners = new Set<() => void>();

  /** Called by the writer: this transaction holds outbox rows. */
  markPending(queryRunner: QueryRunner): void {
    this.pending.add(queryRunner);
  }

  /** Registers `listener`; returns the function that removes it. */
  onCommit(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    if (runner.isTransactionActive || !this.pending.has(runner)) return;
    this.pending.delete(runner);
    for (const listener of this.listeners) listener();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }
}
