import { isMysqlDuplicateKey, isTransientMysqlError } from './mysql/mysql-errors';
import { isPostgresDuplicateKey, isTransientPostgresError } from './postgres/postgres-errors';

// Each engine's errors are told apart by their shape (mysql2's numeric `errno`, node-postgres's
// five-character SQLSTATE `code`), so one classifier serves both without knowing which engine
// a caller runs on; neither module loads a driver.

/**
 * True when `error` (a driver error, or a TypeORM QueryFailedError wrapping one) means the
 * transaction did not take effect and may be retried whole: deadlock, lock-wait timeout,
 * serialization failure, lost or refused connection, a server shutting down or read-only (a
 * primary during a failover), too many connections.
 */
export function isTransientDbError(error: unknown): boolean {
  return isTransientMysqlError(error) || isTransientPostgresError(error);
}

/** True when `error` is a duplicate-key violation (MySQL's ER_DUP_ENTRY, PostgreSQL's 23505). */
export function isDuplicateKeyError(error: unknown): boolean {
  return isMysqlDuplicateKey(error) || isPostgresDuplicateKey(error);
}
