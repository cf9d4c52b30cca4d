/** How many rows a write changed, whatever shape the driver answered it in. */
export { affectedRows } from './affected-rows';
export { backoffDelay, delay } from './backoff';
/** Rejects once a promise has not settled within a time limit (health checks, probes). */
export { withTimeout } from './with-timeout';
export type { BackoffPolicy } from './backoff';
export { databaseConfigFromEnv } from './database-env';
export type { DatabaseEnv } from './database-env';
export { DEFAULT_TRANSACTION_RETRY, runTransaction } from './run-transaction';
export type { TransactionRetryPolicy } from './run-transaction';
export { isDuplicateKeyError, isTransientDbError } from './transient-error';
/** A missing table, column or grant: what a half-done deployment lacks, from a driver error. */
export { deploymentFaultOf, isDeploymentFault } from './deployment-fault';
export type { DeploymentFault } from './deployment-fault';
/** Whether tables, columns and privileges a component needs are in place, as its user sees them. */
export { probeSchema } from './schema-probe';
export type { RequiredTable, SchemaProbe } from './schema-probe';
/** A DataSource named by instance, TypeORM name or injection token, as a module's provider. */
export { dataSourceProvider } from './data-source-ref';
/** Which of a package's tables this connection cannot read (a start-up check). */
export { unreadableTables } from './unreadable-tables';
export type { UnreadableTable } from './unreadable-tables';
export type { DataSourceRef } from './data-source-ref';
/** A compare-and-set UPDATE as a statement: writes only while the expected version holds. */
export { compareAndSet } from './compare-and-set';
export type { CompareAndSet } from './compare-and-set';
/** Several statements in one round trip where the DataSource allows it, each with its own result. */
export { allowsMultipleStatements, runStatements } from './run-statements';
export type { Queryable, Statement } from './statements';
/** A transaction whose last statements travel with its COMMIT, in one round trip where allowed. */
export { transactionCommittingWith } from './committing-transaction';
export type { CommittingTransaction, TransactionIsolation } from './committing-transaction';
/** The operator audit log: who did what, when, to how many, and why. */
export { readOperatorAudit, recordOperatorAction } from './operator-audit/operator-audit';
export type {
  OperatorActionAudit,
  OperatorAuditEntry,
  OperatorAuditRecord,
} from './operator-audit/operator-audit';
/**
 * The audit log's table, standalone. OutboxMigrations and InboxMigrations create it already
 * (when absent), so an app lists it no more; one that still does keeps working.
 */
export { CreateOperatorAuditTable1765300000000 as CreateOperatorAuditTable } from './operator-audit/create-operator-audit-table.migration';
/** For migrations: key columns that compare byte for byte on every engine. */
export { collateKeyColumns, KeyColumnsByteForByte } from './key-columns';
export type { KeyColumns } from './key-columns';
/** The engines the packages run on, and what each needs to know of its engine. */
export type {
  DataSourceConfig,
  NotificationListener,
  SqlDialect,
  SqlEngine,
  SqlNotifications,
} from './sql-dialect';
/** The dialect of a DataSource's engine, loaded with its driver on first use. */
export { engineOf, sqlDialectOf } from './dialect-of';
