import { randomBytes } from 'node:crypto';
import { probeSchema, RequiredTable } from '@outbox-inbox/database';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { probeInboxSchema } from '@outbox-inbox/inbox';
import { probeOutboxSchema } from '@outbox-inbox/outbox';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AccountingMigrations } from '../../apps/accounting-service/src/migrations';
import { CouponMigrations } from '../../apps/coupon-provider/src/migrations';
import { FulfillmentMigrations } from '../../apps/fulfillment-service/src/migrations';
import { OrderMigrations } from '../../apps/order-service/src/migrations';
import {
  createServiceDatabaseUsers,
  ServiceDatabaseName,
  ServiceDatabaseUsers,
} from '@app/trading-test-kit';
import { MYSQL_URL } from '../support/trading-stack';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const MIGRATIONS: Record<ServiceDatabaseName, Function[]> = {
  order_service: OrderMigrations,
  fulfillment_service: FulfillmentMigrations,
  accounting_service: AccountingMigrations,
  coupon_provider: CouponMigrations,
};
const DATABASES = Object.keys(MIGRATIONS) as ServiceDatabaseName[];

/** What the packages say their tables need, per service (their READMEs, "Database grants"). */
const PACKAGE_PROBES: Record<ServiceDatabaseName, Array<(ds: DataSource) => Promise<unknown[]>>> = {
  order_service: [probeOutboxSchema],
  fulfillment_service: [probeOutboxSchema, probeInboxSchema],
  accounting_service: [probeInboxSchema],
  coupon_provider: [],
};

/** The privileges service-users.sql gives each service beside SELECT. */
const WRITES: Record<ServiceDatabaseName, RequiredTable['writes']> = {
  order_service: ['INSERT', 'UPDATE', 'DELETE'],
  fulfillment_service: ['INSERT', 'UPDATE', 'DELETE'],
  accounting_service: ['INSERT', 'UPDATE', 'DELETE'],
  coupon_provider: ['INSERT', 'UPDATE'],
};

/** The MariaDB error a statement fails with (its `code`), or 'ok'. */
async function outcome(dataSource: DataSource, sql: string): Promise<string> {
  try {
    await dataSource.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * deploy/mysql/service-users.sql, the file compose's MariaDB runs when it starts empty and the
 * stack, the demo and the tests apply per run: the schema owner migrates, and each service's
 * user can do its work on its own database and nothing else.
 */
describe('the database users every deployment runs with (deploy/mysql/service-users.sql)', () => {
  const prefix = `t${randomBytes(3).toString('hex')}_`;
  let users: ServiceDatabaseUsers;
  const asService = {} as Record<ServiceDatabaseName, DataSource>;
  /** A table of each service's database and a column of it, for statements that must fail. */
  const someTable: Record<ServiceDatabaseName, string> = {
    order_service: 't_order',
    fulfillment_service: 't_fulfillment',
    accounting_service: 't_journal',
    coupon_provider: 't_coupon',
  };
  const someColumn: Record<ServiceDatabaseName, string> = {
    order_service: 'id',
    fulfillment_service: 'id',
    accounting_service: 'id',
    coupon_provider: 'coupon_code',
  };

  beforeAll(async () => {
    users = await createServiceDatabaseUsers(MYSQL_URL, prefix);
    for (const database of DATABASES) {
      // As `main.js migrate` does with DATABASE_MIGRATE_URL: the owner creates the schema.
      const owner = await openMysqlDataSource({
        url: users.migrateUrl(database),
        migrations: MIGRATIONS[database],
        poolSize: 1,
      });
      try {
        await owner.runMigrations({ transaction: 'each' });
      } finally {
        await owner.destroy();
      }
      asService[database] = await openMysqlDataSource({
        url: users.serviceUrl(database),
        poolSize: 1,
      });
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(asService).map((ds) => ds.isInitialized && ds.destroy()));
    await users?.drop();
    const root = await createConnection({ uri: MYSQL_URL });
    try {
      for (const database of DATABASES)
        await root.query(`DROP DATABASE IF EXISTS \`${prefix}${database}\``);
    } finally {
      await root.end();
    }
  });

  it('connects each service as a user of its own, not as the owner or root', async () => {
    for (const database of DATABASES) {
      const [row] = (await asService[database].query('SELECT CURRENT_USER() AS user')) as Array<{
        user: string;
      }>;
      expect(row.user).toBe(`${prefix}${database}@%`);
    }
  });

  it.each(DATABASES)(
    '%s: its user reads and writes every table of its database, as its packages need',
    async (database) => {
      const dataSource = asService[database];
      for (const probe of PACKAGE_PROBES[database]) expect(await probe(dataSource)).toEqual([]);
      const columns = (await dataSource.query(
        `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'migrations'
          ORDER BY TABLE_NAME, ORDINAL_POSITION`,
      )) as Array<{ tableName: string; columnName: string }>;
      const tables = new Map<string, string[]>();
      for (const { tableName, columnName } of columns)
        tables.set(tableName, [...(tables.get(tableName) ?? []), columnName]);
      expect(tables.size).toBeGreaterThan(0);
      const required = [...tables].map(([table, cols]) => ({
        table,
        columns: cols,
        writes: WRITES[database],
      }));
      expect(await probeSchema(dataSource, required)).toEqual([]);
    },
  );

  it.each(DATABASES)(
    "%s: its user can neither read nor write another service's tables",
    async (database) => {
      const dataSource = asService[database];
      for (const other of DATABASES.filter((d) => d !== database)) {
        const table = `\`${prefix}${other}\`.${someTable[other]}`;
        expect(await outcome(dataSource, `SELECT 1 FROM ${table} LIMIT 1`)).toBe(
          'ER_TABLEACCESS_DENIED_ERROR',
        );
        expect(await outcome(dataSource, `DELETE FROM ${table} WHERE 1 = 0`)).toBe(
          'ER_TABLEACCESS_DENIED_ERROR',
        );
        const column = someColumn[other];
        expect(
          await outcome(dataSource, `UPDATE ${table} SET ${column} = ${column} WHERE 1 = 0`),
        ).toBe('ER_TABLEACCESS_DENIED_ERROR');
        expect(await outcome(dataSource, `USE \`${prefix}${other}\``)).toBe(
          'ER_DBACCESS_DENIED_ERROR',
        );
      }
    },
  );

  it.each(DATABASES)(
    '%s: its user can neither alter, drop nor create its own tables, nor grant',
    async (database) => {
      const dataSource = asService[database];
      const table = someTable[database];
      expect(await outcome(dataSource, `ALTER TABLE ${table} ADD COLUMN intruder INT`)).toBe(
        'ER_TABLEACCESS_DENIED_ERROR',
      );
      expect(await outcome(dataSource, `DROP TABLE ${table}`)).toBe('ER_TABLEACCESS_DENIED_ERROR');
      expect(await outcome(dataSource, `TRUNCATE TABLE ${table}`)).toBe(
        'ER_TABLEACCESS_DENIED_ERROR',
      );
      expect(await outcome(dataSource, `CREATE TABLE t_intruder (id INT)`)).toBe(
        'ER_TABLEACCESS_DENIED_ERROR',
      );
      const index = `CREATE INDEX idx_intruder ON ${table} (${someColumn[database]})`;
      expect(await outcome(dataSource, index)).toBe('ER_TABLEACCESS_DENIED_ERROR');
      expect(await outcome(dataSource, `DROP DATABASE \`${prefix}${database}\``)).toBe(
        'ER_DBACCESS_DENIED_ERROR',
      );
      expect(
        await outcome(dataSource, `GRANT SELECT ON \`${prefix}${database}\`.* TO CURRENT_USER()`),
      ).toMatch(/^ER_(DBACCESS_DENIED_ERROR|ACCESS_DENIED_NO_PASSWORD_ERROR)$/);
      // Its tables are as the owner left them.
      const [{ n }] = (await dataSource.query(
        `SELECT COUNT(*) AS n FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'intruder'`,
        [table],
      )) as Array<{ n: number | string }>;
      expect(Number(n)).toBe(0);
    },
  );

  it('coupon_provider: its user cannot delete, as none of its statements does', async () => {
    expect(await outcome(asService.coupon_provider, 'DELETE FROM t_coupon WHERE 1 = 0')).toBe(
      'ER_TABLEACCESS_DENIED_ERROR',
    );
  });

  it('drops every user it made, and only those', async () => {
    expect(users.users.sort()).toEqual(
      [...DATABASES, 'migrator'].map((name) => `${prefix}${name}`).sort(),
    );
    const root = await createConnection({ uri: MYSQL_URL });
    try {
      const count = async () => {
        const [rows] = await root.query('SELECT COUNT(*) AS n FROM mysql.user WHERE User LIKE ?', [
          `${prefix}%`,
        ]);
        return Number((rows as Array<{ n: number }>)[0].n);
      };
      expect(await count()).toBe(5);
      await Promise.all(Object.values(asService).map((ds) => ds.isInitialized && ds.destroy()));
      await users.drop();
      expect(await count()).toBe(0);
    } finally {
      await root.end();
    }
  });
});
