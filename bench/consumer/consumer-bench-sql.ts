import { engineOf } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { BenchStatement } from '../relay/relay-bench-sql';

/**
 * The consumer bench's own statements, in the words of each engine (`?` on MySQL/MariaDB, `$n`
 * on PostgreSQL): the business table, the handlers' one-row update, and the raw baseline's
 * inbox insert. The inbox's own statements are the package's.
 */
export interface ConsumerBenchSql {
  createAccountTable: string;
  insertAccounts(ids: string[]): BenchStatement;
  /** The business update of each handler: one to the event's account. */
  bookPayment(accountId: string): BenchStatement;
  /** The raw baseline's inbox row, as the consumer writes it (outcome applied). */
  rawInboxInsert(row: {
    consumer: string;
    eventKey: string;
    eventType: string;
    eventId: string;
  }): BenchStatement;
}

const mysqlSql: ConsumerBenchSql = {
  createAccountTable:
    'CREATE TABLE t_bench_account (id VARCHAR(64) PRIMARY KEY, balance BIGINT NOT NULL)',
  insertAccounts: (ids) => ({
    sql: `INSERT INTO t_bench_account (id, balance) VALUES ${ids.map(() => '(?, 0)').join(',')}`,
    params: ids,
  }),
  bookPayment: (id) => ({
    sql: 'UPDATE t_bench_account SET balance = balance + 1 WHERE id = ?',
    params: [id],
  }),
  rawInboxInsert: (r) => ({
    sql: `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES (?, ?, ?, ?, 'applied', ?)`,
    params: [r.consumer, r.eventKey, r.eventType, r.eventId, new Date()],
  }),
};

const postgresSql: ConsumerBenchSql = {
  createAccountTable: mysqlSql.createAccountTable,
  insertAccounts: (ids) => ({
    sql: 'INSERT INTO t_bench_account (id, balance) SELECT unnest($1::text[]), 0',
    params: [ids],
  }),
  bookPayment: (id) => ({
    sql: 'UPDATE t_bench_account SET balance = balance + 1 WHERE id = $1',
    params: [id],
  }),
  rawInboxInsert: (r) => ({
    sql: `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES ($1, $2, $3, $4, 'applied', $5)`,
    params: [r.consumer, r.eventKey, r.eventType, r.eventId, new Date()],
  }),
};

/** The statements for the engine of a DataSource or of an EntityManager's connection. */
export function consumerBenchSql(on: DataSource | EntityManager): ConsumerBenchSql {
  const options = 'connection' in on ? on.connection.options : on.options;
  return engineOf(options.type) === 'postgres' ? postgresSql : mysqlSql;
}
