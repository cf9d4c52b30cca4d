import { runTransaction } from '@outbox-inbox/database';
import { defineEvent, EventDefinition } from '@outbox-inbox/messaging';
import { openOutboxDatabase, TcpProxy, TestDatabase } from '@outbox-inbox/test-kit';
import { IsString } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxOperations, OutboxWriter } from '../src';
import { OutboxClaimer } from '../src/relay/outbox-claimer';
import { OutboxFinalizer } from '../src/relay/outbox-finalizer';
import { OutboxRowState, OutboxStoreUnderTest, OutboxTestEvent } from '../src/testing';

class NotedPayload {
  @IsString() note!: string;
}

const definitions = new Map<string, EventDefinition<NotedPayload>>();
/** `${type}Noted`, the event type the suite's keys name. */
function notedEvent(aggregateType: string): EventDefinition<NotedPayload> {
  let definition = definitions.get(aggregateType);
  if (!definition) {
    definition = defineEvent({
      eventType: `${aggregateType}Noted`,
      aggregateType,
      schemaVersion: 1,
      payload: NotedPayload,
    });
    definitions.set(aggregateType, definition);
  }
  return definition;
}

/**
 * t_outbox on a DataSource of either engine, as the outbox store contract reaches it:
 * OutboxWriter, OutboxClaimer, OutboxFinalizer, OutboxOperations. `close` destroys the
 * DataSource, then runs `dropped` (the fixture's own clean-up).
 */
export class SqlOutboxStore implements OutboxStoreUnderTest {
  private readonly writer = new OutboxWriter();
  private readonly operations: OutboxOperations;

  constructor(
    readonly dataSource: DataSource,
    private readonly dropped: () => Promise<void> = async () => undefined,
    private readonly proxy?: TcpProxy,
  ) {
    this.operations = new OutboxOperations(dataSource, 'block');
  }

  /**
   * t_outbox in `database`, every connection through a TcpProxy of its own (see `cutNetwork`);
   * a statement waits at most `lockWaitTimeoutS` for a row lock. `close` drops the database.
   */
  static async open(database: TestDatabase, lockWaitTimeoutS: number): Promise<SqlOutboxStore> {
    const { proxy, url } = await TcpProxy.inFrontOf(database.url);
    const dataSource = await openOutboxDatabase(url, 6, { lockWaitTimeoutS });
    return new SqlOutboxStore(
      dataSource,
      async () => {
        await proxy.stop();
        await database.drop();
      },
      proxy,
    );
  }

  async add(events: OutboxTestEvent[]): Promise<void> {
    for (const event of events) {
      await this.dataSource.transaction((manager) => this.addIn(manager, event));
    }
  }

  /** As an adopter's command: one transaction through runTransaction, retried whole when transient. */
  addInTransaction(
    work: (add: (event: OutboxTestEvent) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    return runTransaction(this.dataSource, (manager) =>
      work((event) => this.addIn(manager, event)),
    );
  }

  /** Drops every connection of the store and refuses new ones, until the answer is called. */
  async cutNetwork(): Promise<() => Promise<void>> {
    const proxy = this.proxy!;
    await proxy.cut();
    return () => proxy.heal();
  }

  private async addIn(manager: EntityManager, event: OutboxTestEvent): Promise<void> {
    await this.writer.add(manager, notedEvent(event.aggregateType), {
      aggregateId: event.aggregateId,
      aggregateVersion: event.aggregateVersion,
      payload: { note: 'contract' },
    });
  }

  claims: OutboxStoreUnderTest['claims'] = (tuning, owner) =>
    new OutboxClaimer(this.dataSource, tuning, owner);
  outcomes: OutboxStoreUnderTest['outcomes'] = (tuning) =>
    new OutboxFinalizer(this.dataSource, tuning);
  requeueDead: OutboxStoreUnderTest['requeueDead'] = (filter) =>
    this.operations.requeueDead(filter);
  pruneSent: OutboxStoreUnderTest['pruneSent'] = (options) => this.operations.pruneSent(options);

  async rows(): Promise<OutboxRowState[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, event_key, aggregate_id, aggregate_version, status, retry_count
       FROM t_outbox ORDER BY id`,
    )) as Array<Record<string, string | number>>;
    return rows.map((r) => ({
      id: String(r.id),
      eventKey: String(r.event_key),
      aggregateId: String(r.aggregate_id),
      aggregateVersion: Number(r.aggregate_version),
      status: r.status as OutboxRowState['status'],
      retryCount: Number(r.retry_count),
    }));
  }

  /**
   * Locks the `count` rows with the lowest ids in a transaction on a connection of its own
   * (`lockSql` in the engine's words, with the count as its one value) until the returned
   * function rolls it back.
   */
  async lockRows(lockSql: string, count: number): Promise<() => Promise<void>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.startTransaction();
    await runner.query(lockSql, [count]);
    return async () => {
      await runner.rollbackTransaction();
      await runner.release();
    };
  }

  async close(): Promise<void> {
    await this.dataSource.destroy();
    await this.dropped();
  }
}
