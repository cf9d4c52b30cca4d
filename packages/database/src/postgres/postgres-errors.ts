import type { DeploymentFault } from '../deployment-fault.types';
import { errorChain } from '../error-chain';

/** PostgreSQL SQLSTATEs after which the whole transaction can be retried safely. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available: lock_timeout ran out (the transaction is aborted)
  '57P01', // admin_shutdown, also what pg_terminate_backend() sends
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or in recovery
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  '25006', // read_only_sql_transaction: a primary demoted during a failover
]);

/** Socket errors node-postgres passes on as they are. */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres's own words for a connection that died or never came. */
const TRANSIENT_MESSAGES =
  /Connection terminated unexpectedly|Connection terminated due to connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable/i;

/**
 * TypeORM's PostgreSQL query runner listens for its connection's `error` event and releases
 * itself when the server ends the connection. A query the transaction sends after that event,
 * and before the driver's own error reaches it, fails with this error instead: the same lost
 * connection, seen from the other side of a race.
 */
const RELEASED_BY_CONNECTION_ERROR = 'QueryRunnerProviderAlreadyReleasedError';

/** True when a node-postgres error (or a TypeORM error wrapping one) may be retried whole. */
export function isTransientPostgresError(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (e.name === RELEASED_BY_CONNECTION_ERROR) return true;
    if (typeof e.code === 'string' && TRANSIENT_SQLSTATES.has(e.code)) return true;
    if (typeof e.code === 'string' && TRANSIENT_SOCKET_CODES.has(e.code)) return true;
    if (TRANSIENT_MESSAGES.test(String(e.message ?? ''))) return true;
  }
  return false;
}

/** True when a unique key refused the write (unique_violation). */
export function isPostgresDuplicateKey(error: unknown): boolean {
  for (const e of errorChain(error)) if (e.code === '23505') return true;
  return false;
}

/** The deployment faults' SQLSTATEs and the kind of each. */
const DEPLOYMENT_SQLSTATES: Record<string, DeploymentFault['kind']> = {
  '42P01': 'table', // undefined_table
  '42703': 'column', // undefined_column
  '42501': 'grant', // insufficient_privilege
};

/** A missing table, column or privilege, named from the server's message (see deploymentFaultOf). */
export function postgresDeploymentFault(error: unknown): DeploymentFault | undefined {
  for (const e of errorChain(error)) {
    const kind = typeof e.code === 'string' ? DEPLOYMENT_SQLSTATES[e.code] : undefined;
    if (!kind) continue;
    const message = String(e.message ?? '');
    return { kind, code: e.code as string, subject: postgresSubject(message) ?? message };
  }
  return undefined;
}

/** The relation, column or object a message names. */
function postgresSubject(message: string): string | undefined {
  const relation = /^relation "([^"]+)" does not exist/.exec(message);
  if (relation) return relation[1];
  const column = /^column "([^"]+)"(?: of relation "([^"]+)")? does not exist/.exec(message);
  if (column) return column[2] ? `${column[2]}.${column[1]}` : column[1];
  // "permission denied for table t_inbox", "… for sequence t_inbox_id_seq", "… for schema x"
  const denied = /^permission denied for (.+)$/.exec(message);
  if (denied) return denied[1];
  return undefined;
}
