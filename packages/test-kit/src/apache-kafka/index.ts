export { ApacheKafkaCluster } from './apache-kafka-cluster';
export type { ApacheKafkaClusterOptions, PartitionPlacement } from './apache-kafka-cluster';
export type { ClusterState, NodeState } from './cluster-state';
export { ensureApacheKafkaInstalled, pinnedApacheKafkaVersion } from './broker-install';
export { produceWithConsoleProducer } from './console-producer';
export type { ConsoleRecord } from './console-producer';
export {
  CLUSTER_ADMIN,
  CLUSTER_SASL_MECHANISM,
  clusterClientEnv,
  clusterClientFileEnv,
  clusterClientSecurity,
} from './cluster-security';
export type { ClusterSecurity } from './cluster-security';
export { makeClusterTls, makeExpiredNodeKeystore } from './cluster-tls';
export { nodeSecurityProperties } from './node-security-properties';
