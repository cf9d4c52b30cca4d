import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { createConnection } from 'mysql2/promise';
import { KafkaMock, KAFKA_MOCK_BINARY } from './kafka-mock';

/** Where a test's database server and Kafka brokers come from. */
export type InfrastructureSource = 'environment' | 'testcontainers' | 'local';

/** The infrastructure a test file talks to. */
export interface Infrastructure {
  /** Server-level URL without a database, e.g. mysql://root@127.0.0.1:3306 */
  mysqlUrl: string;
  kafkaBrokers: string[];
  mysqlSource: InfrastructureSource;
  kafkaSource: InfrastructureSource;
  /** Present when Kafka is the local mock: the handle for fault injection. */
  kafkaMock?: KafkaMock;
  stop(): Promise<void>;
}

const LOCAL_MYSQL_URL = 'mysql://root@127.0.0.1:3306';
const MARIADB_START = 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd';

/**
 * Resolves the database and the broker, each in this order:
 *   1. MYSQL_URL / KAFKA_BROKERS in the environment (set by the jest global setup when it
 *      started testcontainers, or by you for an existing deployment);
 *   2. the local MariaDB on 127.0.0.1:3306 / a spawned tools/kafka-mock, one per test file;
 *   3. otherwise fail at once, saying what is missing and how to provide it.
 * Testcontainers (a Docker engine) is tried once per run by the global setup, which then
 * exports MYSQL_URL and KAFKA_BROKERS; see jest.global-setup.ts.
 */
export async function resolveInfrastructure(
  options: { topics?: Record<string, number> } = {},
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

  let kafkaBrokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
  let kafkaSource: InfrastructureSource = 'environment';
  let kafkaMock: KafkaMock | undefined;
  if (!kafkaBrokers?.length) {
    kafkaSource = 'local';
    if (existsSync(KAFKA_MOCK_BINARY)) {
      kafkaMock = await KafkaMock.start({ topics: options.topics });
      kafkaBrokers = kafkaMock.brokers;
    } else {
      problems.push(
        `no Kafka: KAFKA_BROKERS is unset, no Docker engine answered, and ${KAFKA_MOCK_BINARY} ` +
          `is not built. Run "npm ci && npm run build:kafka-mock" or set KAFKA_BROKERS=host:port.`,
      );
    }
  }

  if (problems.length > 0 || !mysqlUrl || !kafkaBrokers) {
    await kafkaMock?.stop();
    throw new Error(`Test infrastructure is missing:\n  - ${problems.join('\n  - ')}`);
  }
  const mock = kafkaMock;
  return {
    mysqlUrl: mysqlUrl.replace(/\/+$/, ''),
    kafkaBrokers,
    mysqlSource,
    kafkaSource,
    kafkaMock: mock,
    stop: async () => {
      await mock?.stop();
    },
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
