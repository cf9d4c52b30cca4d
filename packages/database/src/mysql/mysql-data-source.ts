import * as mysql2 from 'mysql2';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { DataSourceConfig } from '../sql-dialect';
import { deferBegin, DeferrableConnection } from './deferred-begin';
import { PromiseWrappable, reusePromiseWrapper } from './reuse-promise-wrapper';

/** What a service needs to reach its own MySQL/MariaDB database. */
export type MysqlDataSourceConfig = DataSourceConfig;

/**
 * DataSource options shared by every service: UTC, bigints as strings (ids leave the process
 * as strings), no `synchronize` (schema changes are migrations), and a bounded pool.
 */
export function mysqlDataSourceOptions(config: MysqlDataSourceConfig): DataSourceOptions {
  return {
    type: 'mysql',
    url: config.url,
    entities: config.entities ?? [],
    migrations: config.migrations ?? [],
    migrationsTableName: config.migrationsTableName ?? 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: false,
    charset: 'utf8mb4_unicode_ci',
    // One query may carry several statements: the inbox sends its inbox row and its version
    // gate in one round trip, and every transaction's START TRANSACTION travels with its first
    // statement (deferred-begin.ts). Every statement in this code base passes values as
    // placeholders, which mysql2 escapes; nothing user-supplied is ever spliced into SQL text.
    multipleStatements: true,
    // mysql2 captures a stack trace for every query so that a failed query's stack shows its
    // caller; that costs up to a tenth of a service's CPU. Errors still carry the SQL and the code.
    trace: false,
    // Every transaction runs at READ COMMITTED: set once per connection rather than with a
    // `SET TRANSACTION` round trip before each transaction (runTransaction relies on it).
    driver: mysqlWithConnectionSetup([
      'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
      ...(config.lockWaitTimeoutS !== undefined
        ? [`SET SESSION innodb_lock_wait_timeout = ${lockWait(config)}`]
        : []),
    ]),
    poolSize: config.poolSize ?? 10,
    extra: {
      connectionLimit: config.poolSize ?? 10,
      waitForConnections: true,
      queueLimit: 0,
      connectTimeout: 10_000,
      enableKeepAlive: true,
      ...(config.acquireTimeoutMs ? { acquireTimeout: config.acquireTimeoutMs } : {}),
    },
  };
}

function lockWait(config: MysqlDataSourceConfig): number {
  const seconds = config.lockWaitTimeoutS;
  if (!Number.isInteger(seconds) || seconds! < 1) {
    throw new RangeError(`lockWaitTimeoutS must be a positive integer, got ${seconds}`);
  }
  return seconds!;
}

/**
 * mysql2 whose pools prepare every new connection before lending it out: `statements` run
 * first (the pool emits 'connection' before handing the connection to its first borrower, and
 * a connection runs its commands in order, so no query of the service runs without the
 * settings), when the pool allows several statements per query, START TRANSACTION is
 * deferred to travel with the transaction's first statement (see deferred-begin.ts), and
 * TypeORM's per-query `promise()` call gets the connection's one wrapper
 * (reuse-promise-wrapper.ts).
 */
function mysqlWithConnectionSetup(statements: string[]): typeof mysql2 {
  const createPool = (options: mysql2.PoolOptions) => {
    const pool = mysql2.createPool(options);
    pool.on('connection', (connection) => {
      // A failure here means the connection is broken: its first real query reports that.
      for (const statement of statements) connection.query(statement, () => undefined);
      if (options.multipleStatements) deferBegin(connection as unknown as DeferrableConnection);
      reusePromiseWrapper(connection as unknown as PromiseWrappable);
    });
    return pool;
  };
  // A new object over the module (whose exports may be read-only getters once bundled).
  const driver = Object.create(mysql2, { createPool: { value: createPool } }) as typeof mysql2;
  return driver;
}

/** Creates and initializes a DataSource; the caller owns `destroy()`. */
export async function openMysqlDataSource(config: MysqlDataSourceConfig): Promise<DataSource> {
  const dataSource = new DataSource(mysqlDataSourceOptions(config));
  await dataSource.initialize();
  return dataSource;
}
