import { mysqlDeploymentFault } from './mysql/mysql-errors';
import { postgresDeploymentFault } from './postgres/postgres-errors';
import type { DeploymentFault } from './deployment-fault.types';

export type { DeploymentFault };

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
