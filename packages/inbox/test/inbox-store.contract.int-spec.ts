import { runTransaction } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TestEnvironment } from '@app/test-kit';
import { DataSource, EntityManager } from 'typeorm';
import { InboxMigrations } from '../src';
import { MysqlInboxBatchStore } from '../src/apply/mysql-inbox-batch-store';
import { MysqlInboxStore } from '../src/apply/mysql-inbox-store';
import { InboxStoreUnderTest, InboxTables, runInboxStoreContract } from '../src/testing';

/** The inbox's tables on MySQL/MariaDB: MysqlInboxStore and MysqlInboxBatchStore. */
class MysqlInboxDatabase implements InboxStoreUnderTest<EntityManager> {
  constructor(
    readonly dataSource: DataSource,
    /** Whether the store sends its inbox row and gate statement in one round trip. */
    private readonly multipleStatements: boolean,
  ) {}

  store = (consumer: string) => new MysqlInboxStore(consumer, this.multipleStatements);
  batchStore = (consumer: string) => new MysqlInboxBatchStore(consumer);

  /** The services' transaction, without its retries: the suite sees every failure. */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work, { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 });
  }

  /** Transactions of this database waiting for a row lock. */
  async lockWaits(): Promise<number> {
    const [{ n }] = (await this.dataSource.query(
      `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
       JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
       WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
    )) as Array<{ n: string | number }>;
    return Number(n);
  }

  async tables(): Promise<InboxTables> {
    const query = (sql: string) =>
      this.dataSource.query(sql) as Promise<Array<Record<string, string | number>>>;
    const [inbox, gates, parked] = await Promise.all([
      query('SELECT consumer, event_key, outcome, duplicate_count FROM t_inbox'),
      query(
        'SELECT consumer, aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version',
      ),
      query(
        'SELECT consumer, aggregate_type, aggregate_id, aggregate_version, event_key FROM t_inbox_parked',
      ),
    ]);
    return {
      inbox: inbox.map((r) => ({
        consumer: String(r.consumer),
        eventKey: String(r.event_key),
        outcome: r.outcome as InboxTables['inbox'][number]['outcome'],
        duplicateCount: Number(r.duplicate_count),
      })),
      gates: gates.map((r) => ({
        consumer: String(r.consumer),
        aggregateType: String(r.aggregate_type),
        aggregateId: String(r.aggregate_id),
        lastVersion: Number(r.last_version),
        parkedCount: Number(r.parked_count),
      })),
      parked: parked.map((r) => ({
        consumer: String(r.consumer),
        aggregateType: String(r.aggregate_type),
        aggregateId: String(r.aggregate_id),
        aggregateVersion: Number(r.aggregate_version),
        eventKey: String(r.event_key),
      })),
    };
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

/** A fresh database with the inbox's tables; a lock waited for fails within 5 s, not 50. */
async function openInboxDatabase(multipleStatements: boolean): Promise<MysqlInboxDatabase> {
  const database = await env.createDatabase('inbox_contract');
  const dataSource = new DataSource(
    mysqlDataSourceOptions({
      url: database.url,
      migrations: InboxMigrations,
      poolSize: 6,
      lockWaitTimeoutS: 5,
    }),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return new MysqlInboxDatabase(dataSource, multipleStatements);
}

/** The server ends every other session of the store's database, as a failover would. */
async function cutConnections(db: InboxStoreUnderTest<EntityManager>): Promise<void> {
  const { dataSource } = db as MysqlInboxDatabase;
  const sessions = (await dataSource.query(
    'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
  )) as Array<{ id: number | string }>;
  for (const { id } of sessions) await dataSource.query(`KILL ${Number(id)}`);
}

runInboxStoreContract('MySQL/MariaDB', { open: () => openInboxDatabase(true), cutConnections }, [
  'lost-connection',
]);

// The store's other path: the inbox row and the gate statement in two round trips.
runInboxStoreContract(
  'MySQL/MariaDB, one statement per query',
  { open: () => openInboxDatabase(false), cutConnections },
  ['lost-connection'],
);
