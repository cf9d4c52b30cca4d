import { createPostgresTestDatabase } from '@outbox-inbox/test-kit';
import { runOutboxStoreContract } from '../src/testing';
import { SqlOutboxStore } from './sql-outbox-store';

runOutboxStoreContract(
  'PostgreSQL',
  {
    // A statement that waited for locked rows would fail within 2 s ('row-locks', 'lock-timeout').
    open: async () => SqlOutboxStore.open(await createPostgresTestDatabase('outbox_contract'), 2),
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
    addInTransaction: (store, work) => (store as SqlOutboxStore).addInTransaction(work),
    cutNetwork: (store) => (store as SqlOutboxStore).cutNetwork(),
  },
  ['lost-connection', 'row-locks', 'deadlock', 'lock-timeout', 'network-cut'],
);
