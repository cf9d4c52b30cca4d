export { backoffDelay, delay } from './backoff';
export type { BackoffPolicy } from './backoff';
export { ensureDatabase } from './ensure-database';
export {
  allowsMultipleStatements,
  mysqlDataSourceOptions,
  openMysqlDataSource,
} from './mysql-data-source';
export type { MysqlDataSourceConfig } from './mysql-data-source';
export { DEFAULT_TRANSACTION_RETRY, runTransaction } from './run-transaction';
export type { TransactionRetryPolicy } from './run-transaction';
export { isDuplicateKeyError, isTransientDbError } from './transient-error';
export { runStatements } from './statements';
export type { Queryable, Statement } from './statements';
