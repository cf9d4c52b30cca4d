import { mysqlDeploymentFault } from './mysql/mysql-errors';
import { postgresDeploymentFault } from './postgres/postgres-errors';

/**
 * What a half-done deployment lacks: a table or a column its migrations create, or a privilege
 * the service's database user needs. No message is at fault, and no retry in place heals it;
 * running the migrations or granting the privilege does.
 */
export interface DeploymentFault {
  kind: 'table' | 'column' | 'grant';
  /**
   * The missing table or column, or the refused privilege and what it was refused on, in the
   * server's words: `t_inbox`, `t_inbox.duplicate_count`, `INSERT on t_inbox`, `table t_inbox`.
   */
  subject: string;
  /** The server's code: ER_NO_SUCH_TABLE (1146), ER_BAD_FIELD_ERROR (1054), 42P01, 42501… */
  code: string;
}

// As isTransientDbError, each engine's errors are told apart by their shape (mysql2's numeric
// `errno`, node-postgres's five-character SQLSTATE), so one classifier serves both engines.

/**
 * The deployment fault `error` (a driver error, or one wrapping it along `driverError` or
 * `cause`) reports, if it reports one: MySQL/MariaDB 1146 (no such table), 1054 (unknown
 * column), 1142 and 1143 (a table or column privilege denied); PostgreSQL 42P01
 * (undefined_table), 42703 (undefined_column), 42501 (insufficient_privilege). Refused
 * credentials (1044, 1045, 28P01) are not one: the service cannot connect at all.
 */
export function deploymentFaultOf(error: unknown): DeploymentFault | undefined {
  return mysqlDeploymentFault(error) ?? postgresDeploymentFault(error);
}

/** True when `error` means a missing table, column or grant (see deploymentFaultOf). */
export function isDeploymentFault(error: unknown): boolean {
  return deploymentFaultOf(error) !== undefined;
}
