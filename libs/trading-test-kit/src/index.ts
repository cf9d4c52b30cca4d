// The trading chain's test kit: its events as Kafka messages and a seeded long-lived
// deployment, for the tests and benchmarks of the chain. The generic kit is @outbox-inbox/test-kit.
/** Trading events and their Kafka messages. */
export { orderCreated, orderEvent } from './trading-messages';
/** A long-lived trading deployment written straight into its tables and topics, at rest. */
export { seedDeployment } from './seed-deployment';
export type { ServiceMigrations } from './seed-deployment';
/** The services' database users of deploy/mysql/service-users.sql, made per run and dropped. */
export {
  createServiceDatabaseUsers,
  createServiceUser,
  renderServiceUsersSql,
  servicePrivileges,
  SERVICE_USERS_SQL,
} from './service-database-users';
export type {
  ServiceDatabaseName,
  ServiceDatabaseUsers,
  ServiceUser,
} from './service-database-users';
