import { testKafkaConfig } from '@outbox-inbox/test-kit';
import { kafkaSecurityFromEnv } from '@app/config';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { affectedRows } from '@outbox-inbox/database';
import { DEFAULT_RELAY_OPTIONS, KafkaOutboxPublisher } from '@outbox-inbox/outbox';
import { purged } from '../lib/purged';
import { Bench, resetToNew } from './relay-bench-kit';
import { relayBenchSql } from './relay-bench-sql';

/** How long the naive relay runs; it is too slow to drain every row. */
const NAIVE_SECONDS = 8;

/** A producer with the relay's settings: one request in flight, Java's partitioner, not idempotent. */
export function benchProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: false,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}

/** The same messages straight from memory to Kafka, in batches of the relay's batch size. */
export async function rawProduceRate(bench: Bench): Promise<number> {
  const range = relayBenchSql(bench.dataSource).rowsInRange(bench.firstId, bench.lastId);
  const rows = (await bench.dataSource.query(range.sql, range.params)) as Array<{
    aggregate_id: string;
    payload: string;
    headers: string;
  }>;
  const messages = rows.map((r) => ({
    key: r.aggregate_id,
    value: r.payload,
    headers: JSON.parse(r.headers),
  }));
  const producer = benchProducer(quietKafka(bench));
  await producer.connect();
  // It writes nothing, but the machine may still be purging what the run before it changed.
  await purged(bench.dataSource);
  try {
    await producer.send({ topic: bench.topic, acks: -1, messages: messages.slice(0, 1) });
    const started = process.hrtime.bigint();
    const batch = DEFAULT_RELAY_OPTIONS.batchSize;
    for (let i = 0; i < messages.length; i += batch) {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic: bench.topic, messages: messages.slice(i, i + batch) }],
      });
    }
    return messages.length / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await producer.disconnect();
  }
}

/**
 * The article's relay, literally: select one due NEW row, claim it with
 * `UPDATE … SET status='SENDING' WHERE id=? AND status='NEW'`, send it, mark it SENT. Runs for
 * NAIVE_SECONDS and leaves the rest of the rows NEW.
 */
export async function naiveRelayRate(bench: Bench): Promise<number> {
  await resetToNew(bench);
  const producer = benchProducer(quietKafka(bench));
  await producer.connect();
  try {
    await producer.send({
      topic: bench.topic,
      acks: -1,
      messages: [{ key: 'warm-up', value: '{}' }],
    });
    let sent = 0;
    const started = process.hrtime.bigint();
    const deadline = Date.now() + NAIVE_SECONDS * 1000;
    while (Date.now() < deadline) {
      const [row] = (await bench.dataSource.query(
        `SELECT id, aggregate_id, payload, headers FROM t_outbox
         WHERE status = 'NEW' AND next_retry_at <= UTC_TIMESTAMP(3) ORDER BY next_retry_at LIMIT 1`,
      )) as Array<{ id: string; aggregate_id: string; payload: string; headers: string }>;
      if (!row) break;
      const claim: unknown = await bench.dataSource.query(
        `UPDATE t_outbox SET status = 'SENDING', updated_at = UTC_TIMESTAMP(3) WHERE id = ? AND status = 'NEW'`,
        [row.id],
      );
      if (affectedRows(claim) !== 1) continue;
      await producer.send({
        topic: bench.topic,
        acks: -1,
        messages: [{ key: row.aggregate_id, value: row.payload, headers: JSON.parse(row.headers) }],
      });
      await bench.dataSource.query(
        `UPDATE t_outbox SET status = 'SENT', updated_at = UTC_TIMESTAMP(3) WHERE id = ?`,
        [row.id],
      );
      sent += 1;
    }
    return sent / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await producer.disconnect();
  }
}

/** A kafkajs client on the bench's broker that logs nothing. */
export function quietKafka(bench: Bench): Kafka {
  return new Kafka(
    testKafkaConfig({
      clientId: 'bench-raw',
      brokers: bench.env.infra.kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      logLevel: logLevel.NOTHING,
    }),
  );
}

/** Rows a minimal relay claims per transaction. */
const MINIMAL_BATCH = 500;

/**
 * The smallest correct batch relay, as the Node outbox libraries write it: in one transaction,
 * claim up to 500 due NEW rows with `FOR UPDATE SKIP LOCKED`, send them with the same kafkajs
 * producer as the relay (KafkaOutboxPublisher), mark them SENT, commit; again until none are
 * left. No lease (the row locks are held across the send), no fencing, no backoff, no
 * per-aggregate hold-back: what the project's relay adds is measured against this. The same
 * loop on PostgreSQL is its twin there: only the statements differ (relay-bench-sql.ts).
 */
export async function minimalRelayRate(bench: Bench): Promise<number> {
  await resetToNew(bench);
  const publisher = new KafkaOutboxPublisher(
    {
      brokers: bench.env.infra.kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      clientId: 'bench-minimal',
      logLevel: logLevel.NOTHING,
    },
    DEFAULT_RELAY_OPTIONS,
  );
  const sql = relayBenchSql(bench.dataSource);
  const runner = bench.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await publisher.publish([
      { topic: bench.topic, messages: [{ key: 'warm-up', value: '{}', headers: {} }] },
    ]);
    let sent = 0;
    const started = process.hrtime.bigint();
    for (;;) {
      await runner.startTransaction();
      const claim = sql.claimDue(MINIMAL_BATCH);
      const rows = (await runner.query(claim.sql, claim.params)) as Array<{
        id: string;
        aggregate_id: string;
        payload: string;
        headers: string;
      }>;
      if (rows.length === 0) {
        await runner.commitTransaction();
        break;
      }
      await publisher.publish([
        {
          topic: bench.topic,
          messages: rows.map((r) => ({
            key: r.aggregate_id,
            value: r.payload,
            headers: JSON.parse(r.headers) as Record<string, string>,
          })),
        },
      ]);
      const mark = sql.markSent(rows.map((r) => r.id));
      await runner.query(mark.sql, mark.params);
      await runner.commitTransaction();
      sent += rows.length;
    }
    return sent / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
    await publisher.disconnect();
  }
}
