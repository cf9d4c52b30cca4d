import { sqlDialectOf, Statement } from '@outbox-inbox/database';
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
 *
 * With `notifyChannel` (PostgreSQL only), each transaction that writes outbox rows also sends
 * one NOTIFY on that channel, which reaches relays in other processes on commit
 * (`ListenNotifyWakeUp`).
 */
export class OutboxCommitNotifier implements EntitySubscriberInterface {
  private readonly pending = new WeakSet<QueryRunner>();
  private readonly notified = new WeakSet<QueryRunner>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: { notifyChannel?: string } = {}) {}

  /**
   * Called by the writer before its insert: the NOTIFY to send in this transaction, once per
   * transaction, when cross-process notification is on; else nothing.
   */
  statementsFor(runner: QueryRunner): Statement<unknown>[] {
    const channel = this.options.notifyChannel;
    if (channel === undefined || this.notified.has(runner)) return [];
    const notifications = sqlDialectOf(runner.connection).notifications;
    if (!notifications)
      throw new Error(`LISTEN/NOTIFY needs PostgreSQL, not ${runner.connection.options.type}`);
    this.notified.add(runner);
    return [notifications.notify(channel)];
  }

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
    this.notified.delete(runner);
    for (const listener of this.listeners) listener();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (event.queryRunner.isTransactionActive) return;
    this.pending.delete(event.queryRunner);
    this.notified.delete(event.queryRunner);
  }
}
