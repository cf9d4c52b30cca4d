import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { createPostgresTestDatabase, TestDatabase } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { InboxMigrations } from '../src';

/** The inbox migrations on PostgreSQL: the same list as on MySQL, in PostgreSQL's words. */
describe('inbox migrations on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('inbox_migrations');
    dataSource = new DataSource(
      postgresDataSourceOptions({ url: database.url, migrations: InboxMigrations }),
    );
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const tables = async () =>
    (
      (await dataSource.query(
        `SELECT tablename FROM pg_tables WHERE tablename LIKE 't\\_%' ORDER BY tablename`,
      )) as Array<{ tablename: string }>
    ).map((r) => r.tablename);
  const uniqueKeys = async () =>
    (
      (await dataSource.query(
        `SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def
         FROM pg_constraint
         WHERE contype = 'u' AND connamespace = 'public'::regnamespace ORDER BY conname`,
      )) as Array<{ t: string; conname: string; def: string }>
    ).map((r) => `${r.t}.${r.conname} ${r.def}`);
  const timeColumns = async () =>
    (
      (await dataSource.query(
        `SELECT DISTINCT format_type(a.atttypid, a.atttypmod) AS type
         FROM information_schema.columns c
         JOIN pg_attribute a ON a.attrelid = c.table_name::regclass AND a.attname = c.column_name
         WHERE c.table_name LIKE 't\\_inbox%' AND c.column_name ~ '_at$|_before$'`,
      )) as Array<{ type: string }>
    ).map((r) => r.type);

  it('creates the inbox tables with their unique keys and timestamptz(3) times', async () => {
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables()).toEqual([
      't_inbox',
      't_inbox_dlq_replay',
      't_inbox_parked',
      't_inbox_prune',
      't_inbox_skip',
      't_inbox_version',
      't_operator_audit',
    ]);
    expect(await uniqueKeys()).toEqual([
      't_inbox.uk_inbox_consumer_event UNIQUE (consumer, event_key)',
      't_inbox_skip.uk_inbox_skip UNIQUE (consumer, aggregate_type, aggregate_id, aggregate_version)',
      't_inbox_parked.uk_parked_aggregate_version UNIQUE (consumer, aggregate_type, aggregate_id, aggregate_version)',
    ]);
    expect(await timeColumns()).toEqual(['timestamp(3) with time zone']);
  });

  it('adds the duplicate count with a default of 0', async () => {
    await dataSource.query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES ('c', 'k', 'T', 'id', 'applied', statement_timestamp())`,
    );
    expect(
      await dataSource.query('SELECT duplicate_count, last_duplicate_at FROM t_inbox'),
    ).toEqual([{ duplicate_count: 0, last_duplicate_at: null }]);
  });

  it('undoes every migration but the shared audit table, and runs them again', async () => {
    for (const _ of InboxMigrations) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables()).toEqual(['t_operator_audit']);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables()).toHaveLength(7);
  });
});
