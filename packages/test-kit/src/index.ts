export { dockerEngineReachable, resolveInfrastructure } from './infrastructure';
export type { Infrastructure, InfrastructureSource } from './infrastructure';
export { KafkaApiKey, KafkaErrorCode, KafkaMock } from './kafka-mock';
export type { KafkaMockOptions } from './kafka-mock';
export { createTestDatabase } from './test-database';
/** Which database drivers a module loads: packages load neither until a dialect is asked for. */
export { driversLoadedBy } from './drivers-loaded';
export type { TestDatabase } from './test-database';
/** A login on a test database that holds only the privileges a test grants it. */
export { createDatabaseUser } from './database-user';
export type { DatabaseUser } from './database-user';
/** A throwaway PostgreSQL database per test file, on POSTGRES_URL or the local server. */
export { createPostgresTestDatabase, postgresServerUrl } from './postgres-test-database';
export { startTestEnvironment } from './test-environment';
export type { TestEnvironment } from './test-environment';
export { waitFor } from './wait-for';
export type { WaitForOptions } from './wait-for';
export { readMarkdownTable } from './markdown-table';
/** The operator token (OPS_API_TOKEN) in-process test apps are configured with. */
export const TEST_OPS_API_TOKEN = 'test-operator-token-0123456789';
/** A port on 127.0.0.1 that nothing listens on right now. */
export { freeLoopbackPort } from './free-loopback-port';
/** A loopback TCP proxy a test can cut and heal: a dependency outage without stopping it. */
export { TcpProxy } from './tcp-proxy';
/** A child process that is to die by a signal mid-work (a crash test's consumer or relay). */
export { runKilledChild } from './killed-child';
/** Business-free event types (a Parcel's life) for the generic libraries' tests. */
export {
  ParcelLostV1,
  ParcelLostV1Payload,
  ParcelRegisteredV1,
  ParcelRegisteredV1Payload,
  ParcelReturnedV1,
  ParcelReturnedV1Payload,
  ParcelShippedV1,
  ParcelShippedV1Payload,
} from './sample-events';
/** The Parcel catalogue's registry and Kafka messages, for the generic libraries' tests. */
export {
  PARCEL_EVENTS,
  parcelEvent,
  parcelEventRegistry,
  parcelRegistered,
  toMessage,
} from './parcel-messages';
/** Kits shared by the libraries' tests and the benchmarks: outbox databases and history. */
export { openOutboxDatabase } from './outbox-database';
export { insertSentHistory } from './sent-history';
/** A local Apache Kafka cluster (tools/apache-kafka): start, node faults, placement, ISR. */
export {
  ApacheKafkaCluster,
  CLUSTER_ADMIN,
  CLUSTER_SASL_MECHANISM,
  clusterClientEnv,
  clusterClientFileEnv,
  clusterClientSecurity,
  ensureApacheKafkaInstalled,
  makeClusterTls,
  makeExpiredNodeKeystore,
  nodeSecurityProperties,
  pinnedApacheKafkaVersion,
  produceWithConsoleProducer,
} from './apache-kafka';
export type {
  ApacheKafkaClusterOptions,
  ClusterSecurity,
  ClusterState,
  ConsoleRecord,
  NodeState,
  PartitionPlacement,
} from './apache-kafka';
/** deploy/kafka/acls.json: the chain's topics and each principal's PREFIXED ACLs, applied. */
export {
  applyKafkaAccess,
  KAFKA_ACCESS_FILE,
  kafkaAccessCommands,
  kafkaAccessPlan,
  readKafkaAccessFile,
} from './kafka-access';
export type { AccessRule, KafkaAccessFile, KafkaAccessPlan, PlannedAcl } from './kafka-access';
/** The KAFKA switch and the broker it starts: mock, Apache Kafka, or KAFKA_BROKERS. */
export { createTopics, KAFKA_STARTUP_MS, kafkaChoice, startKafka } from './kafka';
export type { KafkaBroker, KafkaChoice, KafkaFaults, StartKafkaOptions } from './kafka';
/** A test's own kafkajs settings: the admin's login on a secured cluster, plain elsewhere. */
export { sharedClusterSecurity, testKafkaConfig } from './kafka';
export type { BrokerListConfig } from './kafka';
/** The run's secured cluster when there is one, else a secured node of the test file's own. */
export { securedClusterForTest } from './kafka';
export type { SecuredClusterLease } from './kafka';
