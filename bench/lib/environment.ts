import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { Infrastructure, pinnedApacheKafkaVersion } from '@outbox-inbox/test-kit';
import { createConnection } from 'mysql2/promise';
import { PostgresSettings, sharedPostgresSettings } from './postgres-settings';
import { withBenchAdmin } from './topics';

/** The machine and servers a bench run measured: bench/results/environment.json. */
export interface BenchEnvironment {
  date: string;
  node: string;
  cpu: { count: number; model: string };
  database: {
    version: string;
    innodb_flush_log_at_trx_commit: number;
    sync_binlog: number;
    binlog: boolean;
    binlog_format: string;
    innodb_buffer_pool_size_mb: number;
  };
  broker: { kind: string; version: string; brokers: number };
  /** The PostgreSQL server of the *-pg parts (absent when it was not reachable). */
  postgres?: PostgresSettings;
}

/** Reads the database's version and durability settings and describes the broker. */
export async function describeEnvironment(infra: Infrastructure): Promise<BenchEnvironment> {
  const connection = await createConnection({ uri: infra.mysqlUrl });
  let database: BenchEnvironment['database'];
  try {
    const [rows] = await connection.query(
      `SELECT VERSION() AS version, @@innodb_flush_log_at_trx_commit AS flush,
              @@sync_binlog AS sync_binlog, @@log_bin AS log_bin, @@binlog_format AS format,
              @@innodb_buffer_pool_size AS pool`,
    );
    const row = (rows as Array<Record<string, string | number>>)[0];
    database = {
      version: String(row.version),
      innodb_flush_log_at_trx_commit: Number(row.flush),
      sync_binlog: Number(row.sync_binlog),
      binlog: Number(row.log_bin) === 1,
      binlog_format: String(row.format),
      innodb_buffer_pool_size_mb: Math.round(Number(row.pool) / 1024 / 1024),
    };
  } finally {
    await connection.end();
  }
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: { count: cpus().length, model: cpus()[0]?.model ?? 'unknown' },
    database,
    broker: await describeBroker(infra),
    postgres: await sharedPostgresSettings(),
  };
}

async function describeBroker(infra: Infrastructure): Promise<BenchEnvironment['broker']> {
  if (infra.kafkaMock) {
    // tools/kafka-mock is built against @confluentinc/kafka-javascript's bundled librdkafka.
    const rdkafka = JSON.parse(
      readFileSync(require.resolve('@confluentinc/kafka-javascript/package.json'), 'utf8'),
    ) as { librdkafka: string };
    return {
      kind: 'librdkafka mock cluster (tools/kafka-mock), in-memory, no fsync',
      version: `librdkafka ${rdkafka.librdkafka}`,
      brokers: infra.kafkaBrokers.length,
    };
  }
  const cluster = await withBenchAdmin(infra, (admin) => admin.describeCluster());
  if (infra.kafka.cluster)
    return {
      kind: 'Apache Kafka (tools/apache-kafka), KRaft, combined broker+controller nodes on loopback',
      version: `Apache Kafka ${pinnedApacheKafkaVersion()}`,
      brokers: cluster.brokers.length,
    };
  return {
    kind: `Kafka at ${infra.kafkaBrokers.join(',')}`,
    version: 'not reported by the Kafka protocol to kafkajs',
    brokers: cluster.brokers.length,
  };
}
