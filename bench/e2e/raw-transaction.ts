import { randomBytes, randomUUID } from 'node:crypto';
import { envelopeHeaders, EventEnvelope } from '@outbox-inbox/messaging';
import { PoolConnection } from 'mysql2/promise';

/** What mysql2 answers to a write. */
export interface WriteResult {
  affectedRows: number;
  insertId: number | string;
}

/**
 * One transaction on one raw mysql2 connection, with the round trips the services make:
 * START TRANSACTION travels with the first statement (packages/database deferred-begin.ts), and a
 * statement text may hold several statements (the inbox row with its version gate).
 */
export class RawTransaction {
  private begun = false;

  constructor(private readonly connection: PoolConnection) {}

  /** The statement's result; for a text of several statements, the list of their results. */
  async query<T = unknown>(sql: string, params: unknown[] = []): Promise<T> {
    if (this.begun) {
      const [result] = await this.connection.query(sql, params);
      return result as T;
    }
    this.begun = true;
    const [results] = await this.connection.query(`START TRANSACTION;\n${sql}`, params);
    const own = (results as unknown[]).slice(1);
    return (own.length === 1 ? own[0] : own) as T;
  }
}

/** Runs `work` as one transaction on `connection`: COMMIT, or ROLLBACK and rethrow. */
export async function inTransaction<T>(
  connection: PoolConnection,
  work: (tx: RawTransaction) => Promise<T>,
): Promise<T> {
  try {
    const result = await work(new RawTransaction(connection));
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK');
    throw error;
  }
}

/**
 * An envelope with the fields, sizes and headers OutboxWriter stores (trace context included,
 * as the services write it inside a request's span), built without validation.
 */
export function envelopeOf<P extends object>(
  eventType: string,
  aggregateType: string,
  aggregateId: string,
  aggregateVersion: number,
  payload: P,
  correlationId: string,
  causationId?: string,
): EventEnvelope<P> {
  return {
    eventId: randomUUID(),
    eventType,
    eventKey: `${eventType}:${aggregateId}:${aggregateVersion}`,
    aggregateType,
    aggregateId,
    aggregateVersion,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    correlationId,
    ...(causationId !== undefined && { causationId }),
    trace: {
      traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    },
    payload,
  } as EventEnvelope<P>;
}

/** OutboxWriter.add's INSERT, in the caller's transaction. */
export async function insertOutboxRow(tx: RawTransaction, envelope: EventEnvelope): Promise<void> {
  await tx.query(
    `INSERT INTO t_outbox
       (aggregate_type, aggregate_id, aggregate_version, event_type, event_key, event_id,
        payload, headers, status, next_retry_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'NEW', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))
     ON DUPLICATE KEY UPDATE id = id`,
    [
      envelope.aggregateType,
      envelope.aggregateId,
      envelope.aggregateVersion,
      envelope.eventType,
      envelope.eventKey,
      envelope.eventId,
      JSON.stringify(envelope),
      JSON.stringify(envelopeHeaders(envelope)),
    ],
  );
}

const ARRIVAL_SQL = `INSERT INTO t_inbox
  (consumer, event_key, event_type, event_id, outcome, processed_at) VALUES (?, ?, ?, ?, ?, ?)`;

const FIRST_VERSION_SQL = `INSERT INTO t_inbox_version
    (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
  SELECT ?, ?, ?, 1, 0, ? FROM DUAL WHERE NOT EXISTS (SELECT 1 FROM t_inbox_version
    WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?)`;

const NEXT_VERSION_SQL = `UPDATE t_inbox_version SET last_version = ?, updated_at = ?
  WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?
    AND last_version = ? AND parked_count = 0`;

/**
 * SqlInboxStore.admit on MySQL with several statements per query: the inbox row and the version
 * gate's fast path in one round trip. Events here always arrive in order, so the gate always
 * advances.
 */
export async function admit(
  tx: RawTransaction,
  consumer: string,
  envelope: EventEnvelope,
  outcome: 'applied' | 'ignored',
): Promise<void> {
  const { aggregateType, aggregateId, aggregateVersion } = envelope;
  const aggregate = [consumer, aggregateType, aggregateId];
  const gate =
    aggregateVersion === 1
      ? { sql: FIRST_VERSION_SQL, params: [...aggregate, new Date(), ...aggregate] }
      : {
          sql: NEXT_VERSION_SQL,
          params: [aggregateVersion, new Date(), ...aggregate, aggregateVersion - 1],
        };
  const [, gateResult] = await tx.query<WriteResult[]>(`${ARRIVAL_SQL};\n${gate.sql}`, [
    consumer,
    envelope.eventKey,
    envelope.eventType,
    envelope.eventId,
    outcome,
    new Date(),
    ...gate.params,
  ]);
  if (gateResult.affectedRows !== 1) {
    throw new Error(`${consumer}: the gate did not advance for ${envelope.eventKey}`);
  }
}
