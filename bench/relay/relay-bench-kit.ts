import { kafkaSecurityFromEnv } from '@app/config';
import { OrderCreatedV1 } from '@app/trading-events';
import { TestEnvironment } from '@outbox-inbox/test-kit';
import { orderCreated } from '@app/trading-test-kit';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  DEFAULT_RELAY_OPTIONS,
  KafkaOutboxPublisher,
  createOutboxRelay,
  OutboxRelay,
  OutboxRelayConfig,
  OutboxWriter,
} from '@outbox-inbox/outbox';
import { outboxSqlOf } from '@outbox-inbox/outbox/testing';
import { purged } from '../lib/purged';
import { relayBenchSql } from './relay-bench-sql';

/** Events in the throughput runs (BENCH_RELAY_EVENTS: fewer for a quick check of the script). */
export const EVENTS = Number(process.env.BENCH_RELAY_EVENTS ?? 10_000);
export const SILENT = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** One database, one topic, and the id range of the EVENTS rows every run publishes. */
export interface Bench {
  env: TestEnvironment;
  dataSource: DataSource;
  topic: string;
  firstId: string;
  lastId: string;
  /** How many rows firstId..lastId holds: EVENTS unless the part wrote another number. */
  events?: number;
}

/** Writes `count` events, 100 per transaction, one version each; returns the id range. */
export async function writeEvents(
  dataSource: DataSource,
  count: number,
): Promise<[string, string]> {
  const writer = new OutboxWriter();
  for (let i = 0; i < count; i += 100) {
    await dataSource.transaction(async (manager) => {
      for (let j = i; j < Math.min(count, i + 100); j++) {
        await writer.add(manager, OrderCreatedV1, {
          aggregateId: `bench${j}`,
          aggregateVersion: 1,
          payload: orderCreated(`bench${j}`),
        });
      }
    });
  }
  const [range] = (await dataSource.query(
    // Only the rows written here: the table may already hold history with other ids.
    "SELECT MIN(id) AS lo, MAX(id) AS hi FROM t_outbox WHERE aggregate_id LIKE 'bench%'",
  )) as Array<{
    lo: string;
    hi: string;
  }>;
  return [range.lo, range.hi];
}

/**
 * Waits (at most 60 s) until InnoDB has flushed most pages the bulk insert dirtied, so the
 * measurement sees a table that holds a million SENT rows, not a server busy writing them.
 */
export async function settle(dataSource: DataSource): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const rows = (await dataSource.query(
      `SHOW GLOBAL STATUS WHERE Variable_name IN
         ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')`,
    )) as Array<{ Variable_name: string; Value: string }>;
    const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value ?? 0);
    if (value('Innodb_buffer_pool_pages_dirty') < value('Innodb_buffer_pool_pages_total') * 0.02) {
      return;
    }
    await sleep(500);
  }
}

/** Makes the EVENTS rows NEW again, then waits until the database purged what this and earlier runs changed. */
export async function resetToNew(bench: Bench): Promise<void> {
  const { sql, params } = relayBenchSql(bench.dataSource).resetToNew(bench.firstId, bench.lastId);
  await bench.dataSource.query(sql, params);
  await purged(bench.dataSource);
}

export async function unsentCount(dataSource: DataSource): Promise<number> {
  const [row] = (await dataSource.query(
    `SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')`,
  )) as Array<{ n: string }>;
  return Number(row.n);
}

/** A relay whose producer is connected and topic metadata loaded, so timings exclude start-up. */
export async function warmRelay(
  bench: Bench,
  extra: Partial<OutboxRelayConfig> = {},
): Promise<OutboxRelay> {
  const publisher =
    extra.publisher ??
    new KafkaOutboxPublisher(
      {
        brokers: bench.env.infra.kafkaBrokers,
        ...kafkaSecurityFromEnv(),
        clientId: 'bench-relay',
        logLevel: logLevel.NOTHING,
      },
      DEFAULT_RELAY_OPTIONS,
    );
  await publisher.missingTopics([bench.topic]);
  await publisher.publish([
    { topic: bench.topic, messages: [{ key: 'warm-up', value: '{}', headers: {} }] },
  ]);
  return createOutboxRelay({
    dataSource: bench.dataSource,
    publisher,
    topicFor: () => bench.topic,
    pollIntervalMs: 20,
    logger: SILENT,
    ...extra,
  });
}

/**
 * Events/s for `instances` relays to drain the bench's rows (EVENTS unless it says otherwise);
 * `extra` gives each relay's settings beyond the bench's (its publisher, say).
 */
export async function relayRate(
  bench: Bench,
  instances: number,
  extra: () => Partial<OutboxRelayConfig> = () => ({}),
): Promise<number> {
  await resetToNew(bench);
  const relays = await Promise.all(
    Array.from({ length: instances }, () => warmRelay(bench, extra())),
  );
  const started = process.hrtime.bigint();
  relays.forEach((r) => r.start());
  // The relays' own counters first: counting unsent rows in the table every few ms is a
  // range scan that competes with the relay for the database (the baselines have no poller).
  const published = () => relays.reduce((sum, r) => sum + r.counts().published, 0);
  const events = bench.events ?? EVENTS;
  while (published() < events) await sleep(5);
  while ((await unsentCount(bench.dataSource)) > 0) await sleep(5);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(relays.map((r) => r.stop()));
  return events / seconds;
}

export async function claimPlan(bench: Bench): Promise<unknown> {
  const { sql, params } = outboxSqlOf(bench.dataSource).claimDueNew(200);
  const [plan] = (await bench.dataSource.query(`EXPLAIN ${sql}`, params)) as Array<
    Record<string, unknown>
  >;
  return { type: plan.type, key: plan.key, rows: plan.rows, Extra: plan.Extra };
}

export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}
