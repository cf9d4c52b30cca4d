import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TcpProxy, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource, DataSourceOptions, EntityManager } from 'typeorm';
import { InboxMigrations } from '../src';
import { SqlInboxBatchStore } from '../src/apply/sql-inbox-batch-store';
import { SqlInboxStore } from '../src/apply/sql-inbox-store';
import { mysqlInboxApplySql } from '../src/apply/sql/mysql-inbox-apply-sql';
import { InboxStoreUnderTest, runInboxStoreContract } from '../src/testing';
import { SqlInboxDatabase } from './fixtures/sql-inbox-database';

let env: TestEnvironment;
beforeAll(async () => {
  env = await startTestEnvironment();
});
afterAll(async () => {
  await env.stop();
});

/** A fresh database with the inbox's tables; a lock waited for fails within 5 s, not 50. */
async function openInboxDatabase(multipleStatements: boolean): Promise<SqlInboxDatabase> {
  const database = await env.createDatabase('inbox_contract');
  const { proxy, url } = await TcpProxy.inFrontOf(database.url);
  const dataSource = new DataSource({
    ...mysqlDataSourceOptions({
      url,
      migrations: InboxMigrations,
      poolSize: 6,
      lockWaitTimeoutS: 5,
    }),
    multipleStatements,
  } as DataSourceOptions);
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return new SqlInboxDatabase(
    dataSource,
    {
      // With multipleStatements, the inbox row and the gate statement travel in one round trip.
      store: (consumer) => new SqlInboxStore(consumer, mysqlInboxApplySql),
      batchStore: (consumer) => new SqlInboxBatchStore(consumer, mysqlInboxApplySql),
      lockWaitsSql: `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
        JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
        WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
    },
    () => database.drop(),
    proxy,
  );
}

/** The server ends every other session of the store's database, as a failover would. */
async function cutConnections(db: InboxStoreUnderTest<EntityManager>): Promise<void> {
  const { dataSource } = db as SqlInboxDatabase;
  const sessions = (await dataSource.query(
    'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
  )) as Array<{ id: number | string }>;
  for (const { id } of sessions) await dataSource.query(`KILL ${Number(id)}`);
}

/** The hooks of the real faults: the services' retried transaction, the proxy's cut. */
const faults = {
  retriedTransaction: <T>(db: InboxStoreUnderTest<EntityManager>, work: Work<T>) =>
    (db as SqlInboxDatabase).retriedTransaction(work),
  cutNetwork: (db: InboxStoreUnderTest<EntityManager>) => (db as SqlInboxDatabase).cutNetwork(),
};
type Work<T> = (tx: EntityManager) => Promise<T>;

runInboxStoreContract(
  'MySQL/MariaDB',
  { open: () => openInboxDatabase(true), cutConnections, ...faults },
  ['lost-connection', 'deadlock', 'lock-timeout', 'network-cut'],
);

// The store's other path: the inbox row and the gate statement in two round trips. The minute
// of network cut runs on the path above only: it tests the connection, not the statements.
runInboxStoreContract(
  'MySQL/MariaDB, one statement per query',
  { open: () => openInboxDatabase(false), cutConnections, ...faults },
  ['lost-connection', 'deadlock', 'lock-timeout'],
);
