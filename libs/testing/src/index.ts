export { dockerEngineReachable, resolveInfrastructure } from './infrastructure';
export type { Infrastructure, InfrastructureSource } from './infrastructure';
export { KafkaApiKey, KafkaErrorCode, KafkaMock } from './kafka-mock';
export type { KafkaMockOptions } from './kafka-mock';
export { createTestDatabase } from './test-database';
export type { TestDatabase } from './test-database';
export { startTestEnvironment } from './test-environment';
export type { TestEnvironment } from './test-environment';
export { waitFor } from './wait-for';
export type { WaitForOptions } from './wait-for';
/** A loopback TCP proxy a test can cut and heal: a dependency outage without stopping it. */
export { TcpProxy } from './tcp-proxy';
