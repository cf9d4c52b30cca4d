import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApacheKafkaCluster, ClusterSecurity } from '../apache-kafka';
import { KafkaMock } from '../kafka-mock';
import { TcpProxy } from '../tcp-proxy';
import { createTopics } from './create-topics';
import { KafkaChoice, kafkaChoice } from './kafka-choice';
import { KafkaFaults, mockFaults, proxyFaults } from './kafka-faults';

/** The Kafka an entry point or a test file talks to; `stop()` ends what was started for it. */
export interface KafkaBroker {
  kind: KafkaChoice['kind'];
  /** What it is, for a person: "librdkafka mock", "Apache Kafka, 3 nodes", … */
  label: string;
  /** Bootstrap servers, `host:port` each. */
  brokers: string[];
  /** The mock, when that is the broker: its request-error pushes are mock-only faults. */
  mock?: KafkaMock;
  /** The Apache Kafka cluster, when it is one this machine runs: node faults, placement. */
  cluster?: ApacheKafkaCluster;
  /**
   * Present when the broker is a secured Apache Kafka cluster (kafka:start --secure, or
   * KAFKA=apache with KAFKA_SECURE=true): its CA and every principal's password. Clients then
   * connect as a principal (`cluster.clientSecurity(user)`; tests as the admin, testKafkaConfig),
   * and topics and ACLs come from the operator step, `cluster.applyAccess(prefix)`.
   */
  security?: ClusterSecurity;
  /** Present when asked for (`faults: true`) and the broker was started for this caller. */
  faults?: KafkaFaults;
  /** Creates the missing topics (name → partitions), their leaders elected; as the admin. */
  createTopics(topics: Record<string, number>): Promise<void>;
  stop(): Promise<void>;
}

/** Options for `startKafka`. */
export interface StartKafkaOptions {
  /** Topics to create at once, name → partitions. */
  topics?: Record<string, number>;
  /**
   * The caller will take every broker down or slow them (`KafkaBroker.faults`), so it needs a
   * Kafka of its own: a mock, or an Apache Kafka cluster of one node behind TCP proxies, even
   * when a shared cluster is at KAFKA_BROKERS. Throws for an outside cluster, which is not
   * this machine's to break.
   */
  faults?: boolean;
  /**
   * The caller injects protocol errors that only the mock can (its request-error pushes), so
   * it gets a mock whatever KAFKA says. Such tests are listed in docs/development.md with
   * their real-cluster counterparts.
   */
  mockOnly?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts (or finds) the Kafka that `kafkaChoice` names: KAFKA_BROKERS as it is, else an
 * Apache Kafka cluster on free loopback ports in a folder of its own (KAFKA=apache), else the
 * mock.
 */
export async function startKafka(options: StartKafkaOptions = {}): Promise<KafkaBroker> {
  const choice = kafkaChoice(options.env);
  const broker = await (options.mockOnly
    ? startMock()
    : options.faults
      ? startFaultable(choice)
      : startShared(choice));
  try {
    if (options.topics) await broker.createTopics(options.topics);
  } catch (error) {
    await broker.stop();
    throw error;
  }
  return broker;
}

async function startShared(choice: KafkaChoice): Promise<KafkaBroker> {
  if (choice.kind === 'external') {
    const cluster = clusterBehind(choice);
    const security = cluster?.security;
    const label = cluster ? 'Apache Kafka of this machine (KAFKA_BROKERS)' : 'KAFKA_BROKERS';
    return {
      kind: 'external',
      label: security ? `${label}, secured` : label,
      brokers: choice.brokers,
      cluster,
      security,
      createTopics: (topics) => createTopics(choice.brokers, topics, cluster?.clientSecurity()),
      stop: async () => undefined,
    };
  }
  if (choice.kind === 'apache') return startApache(choice.nodes, { secure: choice.secure });
  return startMock();
}

async function startFaultable(choice: KafkaChoice): Promise<KafkaBroker> {
  if (choice.kind === 'mock') return startMock();
  // A cluster this machine runs (KAFKA=apache, or the jest run's): the fault gets its own.
  // Always PLAINTEXT: a fault test breaks the path to the brokers, not their security.
  if (choice.kind === 'apache' || choice.clusterStateFile) return startApache(1, { proxied: true });
  throw new Error(
    'faults need a Kafka of this machine: KAFKA=apache or KAFKA=mock, not KAFKA_BROKERS',
  );
}

async function startMock(): Promise<KafkaBroker> {
  const mock = await KafkaMock.start();
  return {
    kind: 'mock',
    label: 'librdkafka mock',
    brokers: mock.brokers,
    mock,
    faults: mockFaults(mock),
    createTopics: async (topics) => {
      for (const [topic, partitions] of Object.entries(topics))
        await mock.createTopic(topic, partitions);
    },
    stop: () => mock.stop(),
  };
}

/**
 * The cluster of KAFKA_CLUSTER_STATE, when KAFKA_BROKERS are its brokers: a caller that names
 * another cluster's brokers (a test's own) must not be handed the shared one's nodes or logins.
 */
function clusterBehind(choice: { brokers: string[]; clusterStateFile?: string }) {
  if (!choice.clusterStateFile) return undefined;
  const cluster = ApacheKafkaCluster.attach(choice.clusterStateFile);
  const own = cluster.brokers;
  return choice.brokers.every((b) => own.includes(b)) ? cluster : undefined;
}

async function startApache(
  nodes: number,
  { proxied = false, secure = false }: { proxied?: boolean; secure?: boolean } = {},
): Promise<KafkaBroker> {
  const proxies: TcpProxy[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'apache-kafka-'));
  const stopProxies = () => Promise.all(proxies.map((p) => p.stop()));
  let cluster: ApacheKafkaCluster;
  try {
    cluster = await ApacheKafkaCluster.start({
      nodes,
      dir,
      secure,
      advertise: proxied
        ? async (_id, port) => {
            const proxy = await TcpProxy.start({ host: '127.0.0.1', port });
            proxies.push(proxy);
            return proxy.port;
          }
        : undefined,
    });
  } catch (error) {
    await stopProxies();
    throw error;
  }
  return {
    kind: 'apache',
    label: `Apache Kafka, ${nodes} node${nodes > 1 ? 's' : ''}${proxied ? ' behind TCP proxies' : ''}${secure ? ', secured' : ''}`,
    brokers: cluster.brokers,
    cluster,
    security: cluster.security,
    faults: proxied ? proxyFaults(proxies) : undefined,
    createTopics: (topics) => createTopics(cluster.brokers, topics, cluster.clientSecurity()),
    stop: async () => {
      await cluster.stop();
      await stopProxies();
    },
  };
}

/**
 * How long a jest hook may take that starts a Kafka of its own (`faults`): a liveness bound
 * for formatting and starting an Apache Kafka JVM on two busy cores, not a performance figure.
 */
export const KAFKA_STARTUP_MS = 180_000;
