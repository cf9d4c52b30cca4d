import { openPostgresDataSource } from '@outbox-inbox/database/postgres';
import { createPostgresTestDatabase, TcpProxy } from '@outbox-inbox/test-kit';
import { EntityManager } from 'typeorm';
import { InboxMigrations } from '../src';
import { SqlInboxBatchStore } from '../src/apply/sql-inbox-batch-store';
import { SqlInboxStore } from '../src/apply/sql-inbox-store';
import { postgresInboxApplySql } from '../src/apply/sql/postgres-inbox-apply-sql';
import { InboxStoreUnderTest, runInboxStoreContract } from '../src/testing';
import { SqlInboxDatabase } from './fixtures/sql-inbox-database';

/** A fresh database with the inbox's tables; a lock waited for fails within 5 s. */
async function openInboxDatabase(): Promise<SqlInboxDatabase> {
  const database = await createPostgresTestDatabase('inbox_contract');
  const { proxy, url } = await TcpProxy.inFrontOf(database.url);
  const dataSource = await openPostgresDataSource({
    url,
    migrations: InboxMigrations,
    poolSize: 6,
    lockWaitTimeoutS: 5,
  });
  await dataSource.runMigrations({ transaction: 'each' });
  return new SqlInboxDatabase(
    dataSource,
    {
      store: (consumer) => new SqlInboxStore(consumer, postgresInboxApplySql),
      batchStore: (consumer) => new SqlInboxBatchStore(consumer, postgresInboxApplySql),
      lockWaitsSql: `SELECT COUNT(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    },
    () => database.drop(),
    proxy,
  );
}

/** The server ends every other session of the store's database, as a failover would. */
async function cutConnections(db: InboxStoreUnderTest<EntityManager>): Promise<void> {
  await (db as SqlInboxDatabase).dataSource.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
}

runInboxStoreContract(
  'PostgreSQL',
  {
    open: openInboxDatabase,
    cutConnections,
    retriedTransaction: (db, work) => (db as SqlInboxDatabase).retriedTransaction(work),
    cutNetwork: (db) => (db as SqlInboxDatabase).cutNetwork(),
  },
  ['lost-connection', 'deadlock', 'lock-timeout', 'network-cut'],
);
