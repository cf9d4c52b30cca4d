import { existsSync } from 'node:fs';
import { KafkaConfig } from 'kafkajs';
import {
  CLUSTER_ADMIN,
  clusterClientSecurity,
  ClusterSecurity,
} from '../apache-kafka/cluster-security';
import { readClusterState } from '../apache-kafka/cluster-state';

/**
 * A client config whose bootstrap list is known up front: kafkajs's, or the packages' own
 * connection settings (KafkaConnection), which take `ssl` and `sasl` as kafkajs does.
 */
export type BrokerListConfig = { brokers: string[] } & Pick<KafkaConfig, 'ssl' | 'sasl'>;

/**
 * How the run's shared cluster is secured, when `brokers` are its: the cluster that
 * KAFKA_CLUSTER_STATE names (kafka:start --secure, or the jest global setup's KAFKA_SECURE=true)
 * and whose state file records `security`. Undefined for a PLAINTEXT cluster, a mock, or a
 * cluster a test started for itself (its brokers are not the shared cluster's).
 */
export function sharedClusterSecurity(
  brokers: string[],
  env: NodeJS.ProcessEnv = process.env,
): ClusterSecurity | undefined {
  const file = env.KAFKA_CLUSTER_STATE;
  if (!file || !existsSync(file)) return undefined;
  const state = readClusterState(file);
  if (!state.security || brokers.length === 0) return undefined;
  return brokers.every((b) => state.brokers.includes(b)) ? state.security : undefined;
}

/**
 * kafkajs settings for a test's (or bench's, or demo's) own client on `config.brokers`. On a
 * secured cluster, the admin's TLS and SCRAM login: a test acts as the operator (creates
 * topics, reads offsets) or as Kafka itself (writes copies of events), which no service
 * principal may. Anywhere else, `config` as it is. The cluster's security is that of `broker`
 * when given (a broker handle of `startKafka`), else the shared cluster's (sharedClusterSecurity).
 */
export function testKafkaConfig<C extends BrokerListConfig>(
  config: C,
  broker?: { security?: ClusterSecurity },
): C {
  const security = broker ? broker.security : sharedClusterSecurity(config.brokers);
  return security ? { ...config, ...clusterClientSecurity(security, CLUSTER_ADMIN) } : config;
}
