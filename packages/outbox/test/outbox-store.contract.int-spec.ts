import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { runOutboxStoreContract } from '../src/testing';
import { SqlOutboxStore } from './sql-outbox-store';

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
    // A statement that waited for locked rows would fail within 2 s ('row-locks', 'lock-timeout').
    open: async () => SqlOutboxStore.open(await env.createDatabase('outbox_contract'), 2),
    /** The server ends every other session of the store's database, as a failover would. */
    async cutConnections(store) {
      const { dataSource } = store as SqlOutboxStore;
      const sessions = (await dataSource.query(
        'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
      )) as Array<{ id: number | string }>;
      for (const { id } of sessions) await dataSource.query(`KILL ${Number(id)}`);
    },
    lockRows: (store, count) =>
      (store as SqlOutboxStore).lockRows(
        'SELECT id FROM t_outbox ORDER BY id LIMIT ? FOR UPDATE',
        count,
      ),
    addInTransaction: (store, work) => (store as SqlOutboxStore).addInTransaction(work),
    cutNetwork: (store) => (store as SqlOutboxStore).cutNetwork(),
  },
  ['lost-connection', 'row-locks', 'deadlock', 'lock-timeout', 'network-cut'],
);
