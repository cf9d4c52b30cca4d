import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterClientFileEnv, KafkaBroker } from '@outbox-inbox/test-kit';
import { stackTopics } from './stack-topics';

/** The Kafka principal each service of the stack connects as (deploy/kafka/acls.json). */
export const SERVICE_PRINCIPALS = {
  'order-service': 'order-service',
  'fulfillment-service': 'fulfillment-service',
  'accounting-service': 'accounting-service',
} as const;

/** The principal of the operators' CLI and of the invariant checker. */
export const OPS_PRINCIPAL = 'trading-ops';

/** How the stack's processes log in to its Kafka, and what to clean up afterwards. */
export interface StackKafkaAccess {
  /** True on a secured cluster: every process connects as a principal of its own. */
  secured: boolean;
  /**
   * The environment of a process that connects as `principal`: SASL/SCRAM over TLS with the
   * password in a file; nothing on a PLAINTEXT cluster or the mock.
   */
  loginEnv(principal: string): Record<string, string>;
  /** Removes the password files. */
  remove(): void;
}

/**
 * The operator step before the services start: on a secured cluster, the topics and ACLs of
 * deploy/kafka/acls.json for `topicPrefix`, as the admin (the services create no topics and may
 * not); elsewhere the topics alone. With `topicsReady`, the caller made both already (and may
 * have left an ACL out on purpose): nothing is applied.
 */
export async function prepareStackKafka(
  kafka: KafkaBroker,
  topicPrefix: string,
  topicsReady: boolean,
): Promise<StackKafkaAccess> {
  const { security, cluster } = kafka;
  if (!security || !cluster) {
    if (!topicsReady) await kafka.createTopics(stackTopics(topicPrefix));
    return { secured: false, loginEnv: () => ({}), remove: () => undefined };
  }
  if (!topicsReady) await cluster.applyAccess(topicPrefix);
  const dir = mkdtempSync(join(tmpdir(), 'stack-kafka-secrets-'));
  return {
    secured: true,
    loginEnv: (principal) => clusterClientFileEnv(security, principal, dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
