import { randomBytes, randomUUID } from 'node:crypto';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { PoolConnection } from 'mysql2/promise';
// The statements the services run, imported so that this baseline cannot drift from them.
import { mysqlInboxApplySql } from '../../packages/inbox/src/apply/sql/mysql-inbox-apply-sql';
import { mysqlOutboxSql } from '../../packages/outbox/src/store/sql/mysql-outbox-sql';
import { outboxRowOf } from '../../packages/outbox/src/store/sql/outbox-row-of';

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

/** OutboxWriter.add's INSERT (the outbox's own MySQL statement), in the caller's transaction. */
export async function insertOutboxRow(tx: RawTransaction, envelope: EventEnvelope): Promise<void> {
  const { sql, params } = mysqlOutboxSql.insert(outboxRowOf(envelope));
  await tx.query(sql, params);
}

/**
 * SqlInboxStore.admit on MySQL with several statements per query: the inbox row and the version
 * gate's fast path (the inbox's own MySQL statements) in one round trip. Events here always
 * arrive in order, so the gate always advances.
 */
export async function admit(
  tx: RawTransaction,
  consumer: string,
  envelope: EventEnvelope,
  outcome: 'applied' | 'ignored',
): Promise<void> {
  const [arrival, gate] = mysqlInboxApplySql.fastAdmission(consumer, envelope, outcome);
  const [, gateResult] = await tx.query<WriteResult[]>(`${arrival.sql};\n${gate.sql}`, [
    ...arrival.params,
    ...gate.params,
  ]);
  if (gateResult.affectedRows !== 1) {
    throw new Error(`${consumer}: the gate did not advance for ${envelope.eventKey}`);
  }
}
