/** Which Kafka an entry point uses, from its environment. */
export type KafkaChoice =
  /** KAFKA_BROKERS: a cluster someone else runs; nothing is started. */
  | { kind: 'external'; brokers: string[]; clusterStateFile?: string }
  /**
   * KAFKA=apache: an Apache Kafka cluster of `nodes` started here (tools/apache-kafka);
   * `secure` with KAFKA_SECURE=true (SASL_SSL, one principal per service, ACLs in force).
   */
  | { kind: 'apache'; nodes: number; secure: boolean }
  /** KAFKA=mock, the default: librdkafka's mock cluster (tools/kafka-mock). */
  | { kind: 'mock' };

/**
 * The one switch of `npm test`, `npm run stack`, `npm run demo` and `npm run bench`:
 * KAFKA_BROKERS wins; otherwise KAFKA=apache (KAFKA_NODES=1|3, default 1; KAFKA_SECURE=true for
 * a secured cluster) or KAFKA=mock.
 * KAFKA_CLUSTER_STATE names the state file of an Apache Kafka cluster behind KAFKA_BROKERS
 * (the jest global setup sets both), so tests may stop and start its nodes.
 */
export function kafkaChoice(env: NodeJS.ProcessEnv = process.env): KafkaChoice {
  const brokers = env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers?.length)
    return { kind: 'external', brokers, clusterStateFile: env.KAFKA_CLUSTER_STATE || undefined };
  const kind = env.KAFKA || 'mock';
  if (kind === 'mock') return { kind };
  if (kind !== 'apache') throw new Error(`KAFKA must be "mock" or "apache", got "${kind}"`);
  const nodes = Number(env.KAFKA_NODES || 1);
  if (nodes !== 1 && nodes !== 3)
    throw new Error(`KAFKA_NODES must be 1 or 3, got "${env.KAFKA_NODES}"`);
  const secure = env.KAFKA_SECURE ?? 'false';
  if (secure !== 'true' && secure !== 'false')
    throw new Error(`KAFKA_SECURE must be "true" or "false", got "${secure}"`);
  return { kind, nodes, secure: secure === 'true' };
}
