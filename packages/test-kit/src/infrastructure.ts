import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { createConnection } from 'mysql2/promise';
import { KafkaMock, KAFKA_MOCK_BINARY } from './kafka-mock';
import { KafkaBroker, kafkaChoice, startKafka } from './kafka';

/** Where a test's database server and Kafka brokers come from. */
export type InfrastructureSource = 'environment' | 'testcontainers' | 'local';

/** The infrastructure a test file talks to. */
export interface Infrastructure {
  /** Server-level URL without a database, e.g. mysql://root@127.0.0.1:3306 */
  mysqlUrl: string;
  kafkaBrokers: string[];
  mysqlSource: InfrastructureSource;
  kafkaSource: InfrastructureSource;
  /** Present when Kafka is the local mock: its request-error pushes (mock-only faults). */
  kafkaMock?: KafkaMock;
  /** The broker: topics, and its faults and node controls where this machine runs it. */
  kafka: KafkaBroker;
  stop(): Promise<void>;
}

const LOCAL_MYSQL_URL = 'mysql://root@127.0.0.1:3306';
const MARIADB_START = 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd';

/**
 * Resolves the database and the broker, each in this order:
 *   1. MYSQL_URL / KAFKA_BROKERS in the environment (set by the jest global setup when it
 *      started an Apache Kafka cluster or testcontainers, or by you for a deployment);
 *   2. the local MariaDB on 127.0.0.1:3306 / the Kafka that KAFKA names (kafkaChoice): a
 *      spawned tools/kafka-mock by default, one per test file;
 *   3. otherwise fail at once, saying what is missing and how to provide it.
 * With `kafkaFaults`, the file gets a Kafka of its own whose brokers it may take down or slow
 * (`kafka.faults`): a mock, or a one-node Apache Kafka behind TCP proxies. With
 * `kafkaMockOnly`, a mock whatever KAFKA says, for protocol errors only it can inject. See
 * test/global-setup.js.
 */
export async function resolveInfrastructure(
  options: { topics?: Record<string, number>; kafkaFaults?: boolean; kafkaMockOnly?: boolean } = {},
): Promise<Infrastructure> {
  const problems: string[] = [];

  let mysqlUrl = process.env.MYSQL_URL;
  let mysqlSource: InfrastructureSource = 'environment';
  if (!mysqlUrl) {
    mysqlSource = 'local';
    if (await canConnectMysql(LOCAL_MYSQL_URL)) mysqlUrl = LOCAL_MYSQL_URL;
    else
      problems.push(
        `no MySQL: MYSQL_URL is unset, no Docker engine answered, and nothing accepts ` +
          `root@127.0.0.1:3306. Start MariaDB (${MARIADB_START}) or set MYSQL_URL=mysql://user:pass@host:port.`,
      );
  }

  const choice = kafkaChoice();
  let kafka: KafkaBroker | undefined;
  if ((choice.kind === 'mock' || options.kafkaMockOnly) && !existsSync(KAFKA_MOCK_BINARY)) {
    problems.push(
      `no Kafka: KAFKA_BROKERS is unset, KAFKA is not "apache", and ${KAFKA_MOCK_BINARY} ` +
        `is not built. Run "npm ci && npm run build:kafka-mock", set KAFKA=apache (Java 17 ` +
        `and Maven), or set KAFKA_BROKERS=host:port.`,
    );
  } else if (problems.length === 0) {
    kafka = await startKafka({
      topics: options.topics,
      faults: options.kafkaFaults,
      mockOnly: options.kafkaMockOnly,
    });
  }

  if (problems.length > 0 || !mysqlUrl || !kafka) {
    await kafka?.stop();
    throw new Error(`Test infrastructure is missing:\n  - ${problems.join('\n  - ')}`);
  }
  const broker = kafka;
  return {
    mysqlUrl: mysqlUrl.replace(/\/+$/, ''),
    kafkaBrokers: broker.brokers,
    mysqlSource,
    kafkaSource: broker.kind === 'external' ? 'environment' : 'local',
    kafkaMock: broker.mock,
    kafka: broker,
    stop: () => broker.stop(),
  };
}

async function canConnectMysql(url: string): Promise<boolean> {
  try {
    const connection = await createConnection({ uri: url, connectTimeout: 2_000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/** True when a Docker engine answers on its socket (or DOCKER_HOST). */
export function dockerEngineReachable(timeoutMs = 1_000): Promise<boolean> {
  const host = process.env.DOCKER_HOST;
  const target = host?.startsWith('tcp://')
    ? (() => {
        const u = new URL(host.replace('tcp://', 'http://'));
        return { host: u.hostname, port: Number(u.port || 2375) };
      })()
    : { path: host?.startsWith('unix://') ? host.slice(7) : '/var/run/docker.sock' };
  if ('path' in target && !existsSync(target.path)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect(target as never);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
