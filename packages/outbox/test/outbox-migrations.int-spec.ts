import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { CreateOutboxTable1764700000000 } from '../src/migrations/create-outbox-table.migration';
import { OutboxMigrations } from '../src';
import { mysqlOutboxSql } from '../src/store/sql/mysql-outbox-sql';

/**
 * Upgrading a table that holds rows: SingleStatusIndex1765000000000 drops two indexes and moves
 * each SENDING row's lease expiry into next_retry_at, so a lease taken before the upgrade is
 * neither lost nor stolen early; OutboxKeysByteForByte1765400000000 changes the key columns'
 * collation and keeps the rows.
 */
describe('outbox migrations', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;

  beforeAll(async () => {
    env = await startTestEnvironment();
    const { url } = await env.createDatabase('outbox_migrations');
    dataSource = new DataSource(
      mysqlDataSourceOptions({ url, migrations: [CreateOutboxTable1764700000000] }),
    );
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  it('keeps leases taken before the upgrade and leaves one status index', async () => {
    // Leased by a relay of the earlier version: due a minute ago, lease valid for a minute more
    // (row 1), or already expired (row 2).
    for (const [key, leaseSeconds] of [
      ['ParcelRegistered:m1:1', 60],
      ['ParcelRegistered:m2:1', -1],
    ] as const) {
      await dataSource.query(
        `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
           event_key, event_id, payload, headers, status, next_retry_at, lease_owner, lease_token,
           lease_until, created_at, updated_at)
         VALUES ('Parcel', ?, 1, 'ParcelRegistered', ?, UUID(), '{}', '{}', 'SENDING',
           UTC_TIMESTAMP(3) - INTERVAL 1 MINUTE, 'old-relay', UUID(),
           UTC_TIMESTAMP(3) + INTERVAL ? SECOND, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`,
        [key.split(':')[1], key, leaseSeconds],
      );
    }
    const upgraded = new DataSource({
      ...dataSource.options,
      migrations: OutboxMigrations,
    } as typeof dataSource.options);
    await upgraded.initialize();
    try {
      await upgraded.runMigrations({ transaction: 'each' });
      const { sql, params } = mysqlOutboxSql.claimExpired(10);
      const expired = (await upgraded.query(sql, params)) as Array<{
        event_key: string;
      }>;
      expect(expired.map((r) => r.event_key)).toEqual(['ParcelRegistered:m2:1']);
      const [leased] = (await upgraded.query(
        `SELECT next_retry_at = lease_until AS same FROM t_outbox WHERE event_key = ?`,
        ['ParcelRegistered:m1:1'],
      )) as Array<{ same: number | string }>;
      expect(Number(leased.same)).toBe(1);
      const indexes = (await upgraded.query(
        `SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_outbox'`,
      )) as Array<{ name: string }>;
      expect(indexes.map((i) => i.name).sort()).toEqual([
        'PRIMARY',
        'idx_status_retry',
        'uk_aggregate_version',
        'uk_event_key',
      ]);
    } finally {
      await upgraded.destroy();
    }
  });

  it('makes the key columns compare byte for byte, with the rows kept, and undoes it', async () => {
    const upgraded = new DataSource({
      ...dataSource.options,
      migrations: OutboxMigrations,
    } as typeof dataSource.options);
    await upgraded.initialize();
    const collations = async () =>
      (
        (await upgraded.query(
          `SELECT COLUMN_NAME AS name, COLLATION_NAME AS collation FROM information_schema.COLUMNS
           WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_outbox'
             AND COLUMN_NAME IN ('aggregate_type', 'aggregate_id', 'event_type', 'event_key')`,
        )) as Array<{ name: string; collation: string }>
      ).map((c) => c.collation);
    try {
      await upgraded.runMigrations({ transaction: 'each' });
      expect(await collations()).toEqual(Array(4).fill('utf8mb4_nopad_bin'));
      const keys = async () =>
        (
          (await upgraded.query('SELECT event_key FROM t_outbox ORDER BY id')) as Array<{
            event_key: string;
          }>
        ).map((r) => r.event_key);
      expect(await keys()).toEqual(['ParcelRegistered:m1:1', 'ParcelRegistered:m2:1']);
      await upgraded.undoLastMigration({ transaction: 'each' });
      expect(await collations()).toEqual(Array(4).fill('utf8mb4_unicode_ci'));
      await upgraded.runMigrations({ transaction: 'each' });
      expect(await collations()).toEqual(Array(4).fill('utf8mb4_nopad_bin'));
      expect(await keys()).toEqual(['ParcelRegistered:m1:1', 'ParcelRegistered:m2:1']);
    } finally {
      await upgraded.destroy();
    }
  });
});
