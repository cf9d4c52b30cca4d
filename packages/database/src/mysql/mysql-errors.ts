import { errorChain } from '../error-chain';

/** MySQL/MariaDB errors after which the whole transaction can be retried safely. */
const TRANSIENT_ERRNO = new Set([
  1205, // ER_LOCK_WAIT_TIMEOUT: only the statement rolled back; abandon the transaction
  1213, // ER_LOCK_DEADLOCK: the transaction was rolled back
  1040, // ER_CON_COUNT_ERROR
  1053, // ER_SERVER_SHUTDOWN
  2006, // CR_SERVER_GONE_ERROR
  2013, // CR_SERVER_LOST
  4031, // ER_CLIENT_INTERACTION_TIMEOUT
  1927, // ER_CONNECTION_KILLED
  2002, // CR_CONNECTION_ERROR
  2003, // CR_CONN_HOST_ERROR
  1290, // ER_OPTION_PREVENTS_STATEMENT: --read-only, as a primary is during a failover
  1836, // ER_READ_ONLY_MODE
  1792, // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
]);

const TRANSIENT_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
]);

/**
 * True when `error` (a mysql2 error, or a TypeORM QueryFailedError wrapping one) means the
 * transaction did not take effect and may be retried whole: deadlock, lock-wait timeout,
 * lost or refused connection, a server that is read-only (a primary during a failover).
 */
export function isTransientMysqlError(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (typeof e.errno === 'number' && TRANSIENT_ERRNO.has(e.errno)) return true;
    if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
    if (/Connection lost|closed state/i.test(String(e.message ?? ''))) return true;
  }
  return false;
}

/** True when `error` is a duplicate-key violation (ER_DUP_ENTRY). */
export function isMysqlDuplicateKey(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (e.errno === 1062 || e.code === 'ER_DUP_ENTRY') return true;
  }
  return false;
}
