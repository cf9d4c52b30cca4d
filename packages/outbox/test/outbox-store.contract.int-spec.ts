import { defineEvent, EventDefinition } from '@outbox-inbox/messaging';
import { openOutboxDatabase, startTestEnvironment, TestEnvironment } from '@app/test-kit';
import { IsString } from 'class-validator';
import { DataSource } from 'typeorm';
import { OutboxOperations, OutboxWriter } from '../src';
import { OutboxClaimer } from '../src/outbox-claimer';
import { OutboxFinalizer } from '../src/outbox-finalizer';
import { OutboxRowState, OutboxStoreUnderTest, runOutboxStoreContract } from '../src/testing';

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

/** t_outbox on MySQL/MariaDB: OutboxWriter, OutboxClaimer, OutboxFinalizer, OutboxOperations. */
class MysqlOutboxStore implements OutboxStoreUnderTest {
  private readonly writer = new OutboxWriter();
  private readonly operations: OutboxOperations;

  constructor(readonly dataSource: DataSource) {
    this.operations = new OutboxOperations(dataSource, 'block');
  }

  async add(events: Parameters<OutboxStoreUnderTest['add']>[0]): Promise<void> {
    for (const event of events) {
      await this.dataSource.transaction((manager) =>
        this.writer.add(manager, notedEvent(event.aggregateType), {
          aggregateId: event.aggregateId,
          aggregateVersion: event.aggregateVersion,
          payload: { note: 'contract' },
        }),
      );
    }
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

  async close(): Promise<void> {
    await this.dataSource.destroy();
  }
}

let env: TestEnvironment;
beforeAll(async () => {
  env = await startTestEnvironment();
});
afterAll(async () => {
  await env.stop();
});

runOutboxStoreContract(
  'MySQL/MariaDB',
  {
    async open() {
      const database = await env.createDatabase('outbox_contract');
      return new MysqlOutboxStore(await openOutboxDatabase(database.url, 6));
    },
    /** The server ends every other session of the store's database, as a failover would. */
    async cutConnections(store) {
      const { dataSource } = store as MysqlOutboxStore;
      const sessions = (await dataSource.query(
        'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
      )) as Array<{ id: number | string }>;
      for (const { id } of sessions) await dataSource.query(`KILL ${Number(id)}`);
    },
  },
  ['lost-connection'],
);
