import { parcelRegistered, ParcelRegisteredV1, waitFor } from '@outbox-inbox/test-kit';
import { Kafka } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxWriter } from '../src';

/** Adds ParcelRegistered `version` of `parcelId` in the caller's transaction; returns its event key. */
async function addParcelRegistered(
  writer: OutboxWriter,
  manager: EntityManager,
  parcelId: string,
  version: number,
): Promise<string> {
  const envelope = await writer.add(manager, ParcelRegisteredV1, {
    aggregateId: parcelId,
    aggregateVersion: version,
    payload: parcelRegistered(parcelId),
  });
  return envelope.eventKey;
}

/**
 * Writes `versions` ParcelRegistered events (versions 1..n) for each of `aggregates` parcels, one
 * transaction per event, interleaving aggregates; returns the event keys written.
 */
export async function writeParcelEvents(
  dataSource: DataSource,
  writer: OutboxWriter,
  aggregates: number,
  versions: number,
  prefix = 'o',
): Promise<string[]> {
  const keys: string[] = [];
  for (let version = 1; version <= versions; version++) {
    const rows = Array.from({ length: aggregates }, (_, a) => `${prefix}${a}`);
    // Several aggregates per transaction keeps a 3,000-event setup quick.
    for (let i = 0; i < rows.length; i += 50) {
      await dataSource.transaction(async (manager) => {
        for (const parcelId of rows.slice(i, i + 50)) {
          keys.push(await addParcelRegistered(writer, manager, parcelId, version));
        }
      });
    }
  }
  return keys;
}

/**
 * Writes versions 1..n of each of `aggregates` parcels, all versions of one parcel in one
 * transaction, parcel after parcel: one aggregate's versions sit next to each other in the table,
 * so consecutive claims meet the same aggregate.
 */
export async function writeVersionRuns(
  dataSource: DataSource,
  writer: OutboxWriter,
  aggregates: number,
  versions: number,
  prefix: string,
): Promise<string[]> {
  const keys: string[] = [];
  for (let a = 0; a < aggregates; a++) {
    const parcelId = `${prefix}${a}`;
    await dataSource.transaction(async (manager) => {
      for (let version = 1; version <= versions; version++) {
        keys.push(await addParcelRegistered(writer, manager, parcelId, version));
      }
    });
  }
  return keys;
}

/** A message as the test's consumer saw it. */
export interface Consumed {
  key: string;
  eventKey: string;
  aggregateId: string;
  version: number;
  partition: number;
  offset: bigint;
  headers: Record<string, string>;
}

/** Reads `topic` from the beginning until `done(messages)` holds; always disconnects. */
export async function consumeUntil(
  kafka: Kafka,
  topic: string,
  done: (messages: Consumed[]) => boolean,
  timeoutMs = 40_000,
): Promise<Consumed[]> {
  const consumer = kafka.consumer({ groupId: `check-${topic}-${Date.now()}` });
  const messages: Consumed[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        const envelope = JSON.parse(String(message.value)) as {
          eventKey: string;
          aggregateId: string;
          aggregateVersion: number;
        };
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
        messages.push({
          key: String(message.key),
          eventKey: envelope.eventKey,
          aggregateId: envelope.aggregateId,
          version: envelope.aggregateVersion,
          partition,
          offset: BigInt(message.offset),
          headers,
        });
      },
    });
    await waitFor(() => done(messages), { timeoutMs, description: `messages on ${topic}` });
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

/** Row counts per status. */
export async function statusCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const rows = (await dataSource.query(
    'SELECT status, COUNT(*) AS n FROM t_outbox GROUP BY status',
  )) as Array<{ status: string; n: string }>;
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Asserts each key's versions arrive in increasing order (duplicates allowed only if equal). */
export function versionsOutOfOrder(messages: Consumed[]): string[] {
  const last = new Map<string, number>();
  const problems: string[] = [];
  for (const m of [...messages].sort(
    (a, b) => a.partition - b.partition || Number(a.offset - b.offset),
  )) {
    const previous = last.get(m.key) ?? 0;
    if (m.version < previous) problems.push(`${m.key}: v${m.version} after v${previous}`);
    last.set(m.key, Math.max(previous, m.version));
  }
  return problems;
}

/** Keys that appear more than once. */
export function duplicates(messages: Consumed[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const m of messages) (seen.has(m.eventKey) ? twice : seen).add(m.eventKey);
  return [...twice];
}

/** A logger that keeps what the relay says, for assertions and for debugging a failure. */
export class CapturingLogger {
  readonly lines: string[] = [];
  log(message: unknown): void {
    this.lines.push(`log ${String(message)}`);
  }
  warn(message: unknown): void {
    this.lines.push(`warn ${String(message)}`);
  }
  error(message: unknown): void {
    this.lines.push(`error ${String(message)}`);
  }
}

/** Fast settings for tests against the mock broker (the lease still covers one send). */
export const FAST_RELAY = {
  pollIntervalMs: 50,
  leaseMs: 10_000,
  requestTimeoutMs: 2_000,
  producerRetries: 2,
  backoff: { baseDelayMs: 50, maxDelayMs: 500 },
} as const;

/** Rows by status and lease owner. */
export async function rowsOf(
  dataSource: DataSource,
  aggregateIds: string[],
): Promise<
  Array<{
    event_key: string;
    status: string;
    retry_count: number;
    lease_owner: string | null;
    last_error: string | null;
  }>
> {
  return dataSource.query(
    `SELECT event_key, status, retry_count, lease_owner, last_error FROM t_outbox
     WHERE aggregate_id IN (?) ORDER BY aggregate_id, aggregate_version`,
    [aggregateIds],
  );
}
