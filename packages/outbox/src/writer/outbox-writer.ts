import {
  createEnvelope,
  EventDefinition,
  EventEnvelope,
  MessageTracing,
  NewEvent,
  openTelemetryTracing,
} from '@outbox-inbox/messaging';
import { runStatements, Statement } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { OutboxCommitNotifier } from './outbox-commit-notifier';
import { OutboxError } from '../outbox.errors';
import { outboxRowOf } from '../store/sql/outbox-row-of';
import { outboxSqlOf } from '../store/sql/outbox-sql-of';

/**
 * Writes events into `t_outbox` inside the caller's transaction, so the event exists exactly
 * when the business change it describes does.
 */
export class OutboxWriter {
  /** `tracing` captures the trace context stored with each event (default: OpenTelemetry's). */
  constructor(
    private readonly notifier?: OutboxCommitNotifier,
    private readonly tracing: MessageTracing = openTelemetryTracing,
  ) {}

  /**
   * Validates the event (EventValidationError with the field errors: an invalid event never
   * enters the table) and inserts it through `manager`, which must belong to an open
   * transaction (OutboxError OUTBOX_NO_TRANSACTION otherwise). Adding an event whose key
   * (eventType:aggregateId:version) is already stored changes nothing and returns the stored
   * envelope; it does not fail the statement, so the caller's transaction goes on (on
   * PostgreSQL, where a failed statement would abort it, too). Adding
   * another event at a version of the aggregate that an event of another type holds throws
   * OutboxError OUTBOX_VERSION_TAKEN: consumers gate by version and would skip it as stale.
   *
   * `alongside`: the caller's own statements of the same change (its compare-and-set, a history
   * row), sent before the event's insert, in the same round trip where the engine allows it
   * (see `runStatements`; their SQL is the caller's, in its engine's dialect); when one
   * of their `read`s throws, `add` throws that error, and the caller's transaction must roll
   * back, which takes the event's row with it.
   */
  async add<P extends object>(
    manager: EntityManager,
    definition: EventDefinition<P>,
    event: NewEvent<P>,
    alongside: Statement<unknown>[] = [],
  ): Promise<EventEnvelope<P>> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      throw new OutboxError(
        'OUTBOX_NO_TRANSACTION',
        `OutboxWriter.add(${definition.eventType}) needs the EntityManager of an open ` +
          'transaction (dataSource.transaction / runTransaction); nothing was written',
      );
    }
    // The trace context of the writing request (its HTTP span), unless the caller names one.
    const trace = event.trace ?? this.tracing.capture();
    const envelope = createEnvelope(definition, { ...event, ...(trace && { trace }) });
    const insert = outboxSqlOf(manager.connection).insert(outboxRowOf(envelope));
    const notify = this.notifier?.statementsFor(runner) ?? [];
    const results = await runStatements(manager, [...alongside, insert, ...notify]);
    if (results[alongside.length] === true) {
      this.notifier?.markPending(runner);
      return envelope;
    }
    return this.storedEnvelope(manager, envelope);
  }

  private async storedEnvelope<P>(
    manager: EntityManager,
    envelope: EventEnvelope<P>,
  ): Promise<EventEnvelope<P>> {
    const { sql, params } = outboxSqlOf(manager.connection).atVersion(
      envelope.aggregateType,
      envelope.aggregateId,
      envelope.aggregateVersion,
    );
    const rows = (await manager.query(sql, params)) as Array<{
      event_key: string;
      payload: string | object;
    }>;
    if (rows.length === 0) {
      throw new OutboxError('OUTBOX_KEY_CONFLICT', `event ${envelope.eventKey} vanished`);
    }
    if (rows[0].event_key !== envelope.eventKey) {
      throw new OutboxError(
        'OUTBOX_VERSION_TAKEN',
        `${envelope.aggregateType} ${envelope.aggregateId} version ${envelope.aggregateVersion} is taken by ${rows[0].event_key}; ${envelope.eventType} was not written (one event per aggregate version)`,
      );
    }
    const stored = rows[0].payload;
    return (typeof stored === 'string' ? JSON.parse(stored) : stored) as EventEnvelope<P>;
  }
}
