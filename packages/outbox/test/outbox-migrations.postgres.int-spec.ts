import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { createPostgresTestDatabase, TestDatabase } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxMigrations } from '../src';

/** The outbox migrations on PostgreSQL: the same list as on MySQL, in PostgreSQL's words. */
describe('outbox migrations on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('outbox_migrations');
    dataSource = new DataSource(
      postgresDataSourceOptions({ url: database.url, migrations: OutboxMigrations }),
    );
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const indexes = async () =>
    (
      (await dataSource.query(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 't_outbox' ORDER BY indexname`,
      )) as Array<{ indexdef: string }>
    ).map((r) => r.indexdef.replace(/ USING btree| ON public\.t_outbox/g, ''));
  const columnTypes = async () =>
    Object.fromEntries(
      (
        (await dataSource.query(
          `SELECT column_name, format_type(atttypid, atttypmod) AS type
           FROM information_schema.columns c
           JOIN pg_attribute a ON a.attrelid = 't_outbox'::regclass AND a.attname = c.column_name
           WHERE c.table_name = 't_outbox'`,
        )) as Array<{ column_name: string; type: string }>
      ).map((r) => [r.column_name, r.type]),
    );

  it('creates t_outbox with the claim index, both unique keys, text payloads and timestamptz(3)', async () => {
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await indexes()).toEqual([
      'CREATE INDEX idx_outbox_status_retry (status, next_retry_at, id)',
      'CREATE UNIQUE INDEX t_outbox_pkey (id)',
      'CREATE UNIQUE INDEX uk_outbox_aggregate_version (aggregate_type, aggregate_id, aggregate_version)',
      'CREATE UNIQUE INDEX uk_outbox_event_key (event_key)',
    ]);
    expect(await columnTypes()).toMatchObject({
      id: 'bigint',
      payload: 'text',
      headers: 'text',
      next_retry_at: 'timestamp(3) with time zone',
      lease_until: 'timestamp(3) with time zone',
      sent_at: 'timestamp(3) with time zone',
    });
  });

  it('undoes every migration, and runs them again to the same table', async () => {
    for (const _ of OutboxMigrations) await dataSource.undoLastMigration({ transaction: 'each' });
    const [{ exists }] = (await dataSource.query(
      `SELECT to_regclass('t_outbox') IS NOT NULL AS exists`,
    )) as Array<{ exists: boolean }>;
    expect(exists).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await indexes()).toHaveLength(4);
  });
});
