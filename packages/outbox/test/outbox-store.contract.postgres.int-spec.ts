import { createPostgresTestDatabase, openOutboxDatabase } from '@app/test-kit';
import { runOutboxStoreContract } from '../src/testing';
import { SqlOutboxStore } from './sql-outbox-store';

runOutboxStoreContract(
  'PostgreSQL',
  {
    async open() {
      const database = await createPostgresTestDatabase('outbox_contract');
      // A claim that waited for locked rows would fail within 2 s (feature 'row-locks').
      const dataSource = await openOutboxDatabase(database.url, 6, { lockWaitTimeoutS: 2 });
      return new SqlOutboxStore(dataSource, () => database.drop());
    },
    /** The server ends every other session of the store's database, as a failover would. */
    async cutConnections(store) {
      const { dataSource } = store as SqlOutboxStore;
      await dataSource.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
    },
    lockRows: (store, count) =>
      (store as SqlOutboxStore).lockRows(
        'SELECT id FROM t_outbox ORDER BY id LIMIT $1 FOR UPDATE',
        count,
      ),
  },
  ['lost-connection', 'row-locks'],
);
