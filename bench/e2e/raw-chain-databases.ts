import { ensureDatabase, openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { createConnection, createPool, Pool } from 'mysql2/promise';

/** One raw mysql2 pool per service database, as the services have one DataSource each. */
export interface RawChainPools {
  order: Pool;
  fulfillment: Pool;
  accounting: Pool;
  coupon: Pool;
}

export type ServiceDatabase = keyof RawChainPools;

/** The four databases of the raw whole-chain baseline and their pools. */
export interface RawChainDatabases {
  pools: RawChainPools;
  /** Ends the pools and drops the databases. */
  close(): Promise<void>;
}

/** Each service's own migrations (passed in by the bench script, which may import apps). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type ServiceMigrations = Record<ServiceDatabase, Function[]>;

/**
 * Creates `<prefix><service>` for each of the four services, runs that service's own
 * `migrations` in it (the same tables and indexes as the stack's), and opens a raw mysql2 pool of
 * `connections` on each, set up as the services' DataSources are: UTC, bigints as strings,
 * several statements per query, READ COMMITTED on every connection.
 */
export async function createRawChainDatabases(
  mysqlUrl: string,
  prefix: string,
  connections: number,
  migrations: ServiceMigrations,
): Promise<RawChainDatabases> {
  const urls = Object.fromEntries(
    Object.keys(migrations).map((name) => [name, `${mysqlUrl}/${prefix}${name}`]),
  ) as Record<ServiceDatabase, string>;
  const pools: Partial<RawChainPools> = {};
  const close = async () => {
    await Promise.all(Object.values(pools).map((pool) => pool.end()));
    const admin = await createConnection({ uri: mysqlUrl });
    try {
      for (const name of Object.keys(urls)) {
        await admin.query(`DROP DATABASE IF EXISTS \`${prefix}${name}\``);
      }
    } finally {
      await admin.end();
    }
  };
  try {
    for (const name of Object.keys(migrations) as ServiceDatabase[]) {
      await ensureDatabase(urls[name]);
      const dataSource = await openMysqlDataSource({
        url: urls[name],
        migrations: migrations[name],
        poolSize: 1,
      });
      try {
        await dataSource.runMigrations({ transaction: 'each' });
      } finally {
        await dataSource.destroy();
      }
      const pool = createPool({
        uri: urls[name],
        connectionLimit: connections,
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: true,
        charset: 'utf8mb4_unicode_ci',
        multipleStatements: true,
        // As the services: no stack trace captured per query.
        trace: false,
      });
      pool.on('connection', (connection) => {
        connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
      });
      pools[name] = pool;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { pools: pools as RawChainPools, close };
}
