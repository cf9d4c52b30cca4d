import type { DeploymentFault } from '../deployment-fault.types';
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

/** The deployment faults' error numbers and the kind of each. */
const DEPLOYMENT_ERRNO: Record<number, DeploymentFault['kind']> = {
  1146: 'table', // ER_NO_SUCH_TABLE
  1054: 'column', // ER_BAD_FIELD_ERROR
  1142: 'grant', // ER_TABLEACCESS_DENIED_ERROR
  1143: 'grant', // ER_COLUMNACCESS_DENIED_ERROR
};

/** A missing table, column or privilege, named from the server's message (see deploymentFaultOf). */
export function mysqlDeploymentFault(error: unknown): DeploymentFault | undefined {
  for (const e of errorChain(error)) {
    const kind = typeof e.errno === 'number' ? DEPLOYMENT_ERRNO[e.errno] : undefined;
    if (!kind) continue;
    const message = String(e.message ?? '');
    const code = typeof e.code === 'string' ? e.code : String(e.errno);
    return { kind, code, subject: mysqlSubject(message) ?? message };
  }
  return undefined;
}

// MySQL quotes names with '…', MariaDB with `…`; either may prefix the database's name.
const NAME = "[`']?(?:[^`'.\\s]+[`']?\\.[`']?)?([^`'\\s]+)[`']?";

/** The table, column or privilege a message names, without the database's name. */
function mysqlSubject(message: string): string | undefined {
  const table = new RegExp(`^Table ${NAME} doesn't exist`).exec(message);
  if (table) return table[1];
  const column = /^Unknown column '([^']+)'/.exec(message);
  if (column) return column[1];
  const onColumn = new RegExp(`^(\\w+) command denied .* for column ${NAME} in table ${NAME}`).exec(
    message,
  );
  if (onColumn) return `${onColumn[1]} on ${onColumn[3]}.${onColumn[2]}`;
  const onTable = new RegExp(`^(\\w+) command denied .* for table ${NAME}`).exec(message);
  if (onTable) return `${onTable[1]} on ${onTable[2]}`;
  return undefined;
}
