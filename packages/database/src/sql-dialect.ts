import type { DataSource, DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import type { Statement } from './statements';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityList = MixedList<Function | string | EntitySchema>;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type MigrationList = MixedList<Function | string>;

/** The SQL engines the packages run on: MySQL or MariaDB, and PostgreSQL. */
export type SqlEngine = 'mysql' | 'postgres';

/** What a service needs to reach its own database, on either engine. */
export interface DataSourceConfig {
  /** mysql://user:password@host:port/database or postgres://user:password@host:port/database */
  url: string;
  entities?: EntityList;
  migrations?: MigrationList;
  /** Connections in the pool. */
  poolSize?: number;
  /** Longest wait for a free pooled connection before the query fails, in ms. */
  acquireTimeoutMs?: number;
  /** Prefix of the migrations table name, so each service keeps its own history. */
  migrationsTableName?: string;
  /**
   * How long one statement waits for a row lock before it fails, in seconds: MySQL's
   * `innodb_lock_wait_timeout`, PostgreSQL's `lock_timeout`. The failure is transient, and
   * `runTransaction` and the inbox answer it by retrying the whole transaction.
   */
  lockWaitTimeoutS?: number;
}

/**
 * How rows are claimed (locked skipping locked rows, marked taken, read back): in 'one-statement'
 * where an UPDATE can lock its rows in a subquery and answer them (PostgreSQL's data-modifying
 * CTE with RETURNING), in a 'transaction' of several statements where it cannot (MySQL and
 * MariaDB have no UPDATE … RETURNING: lock and read, then update, then commit).
 */
export type ClaimStyle = 'one-statement' | 'transaction';

/**
 * Everything the packages need to know of their engine, in one place: how to open a
 * DataSource, create its database, whether several statements travel in one query, how rows
 * are claimed, count what a write changed, and classify errors. Each engine's dialect lives
 * under its own subpath and loads its own driver; `sqlDialectOf` loads the one a DataSource
 * needs.
 */
export interface SqlDialect {
  readonly engine: SqlEngine;
  /** TypeORM DataSource options: UTC, bigints as strings, no `synchronize`, a bounded pool. */
  dataSourceOptions(config: DataSourceConfig): DataSourceOptions;
  /** Creates the database named in `url` when it does not exist yet. */
  ensureDatabase(url: string): Promise<void>;
  /**
   * True when one query on `dataSource` may carry several statements with their values, so
   * `runStatements` sends them in one round trip; false sends them one query each. Asked of the
   * DataSource's own options, never assumed from the engine.
   */
  severalStatementsPerQuery(dataSource: Pick<DataSource, 'options'>): boolean;
  /** How rows are claimed on this engine: in one statement, or in a transaction of several. */
  readonly claimStyle: ClaimStyle;
  /** How many rows a write changed, from what the driver answered. */
  affectedRows(result: unknown): number;
  /** True when the transaction did not take effect and may be retried whole. */
  isTransient(error: unknown): boolean;
  /** True when a unique key refused the write. */
  isDuplicateKey(error: unknown): boolean;
  /** Cross-process wake-up on commit (LISTEN/NOTIFY), where the engine has it; else undefined. */
  readonly notifications?: SqlNotifications;
}

/** What a NotificationListener reports to: a Nest LoggerService fits. */
export interface NotificationOptions {
  logger?: { log?(message: string): unknown; warn?(message: string): unknown };
}

/** A session of its own that listens on one channel until stopped. */
export interface NotificationListener {
  /** Connects; resolves once the first LISTEN is in place (or failed, to be retried). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** PostgreSQL's LISTEN/NOTIFY, as the outbox's cross-process wake-up uses it. */
export interface SqlNotifications {
  /** The NOTIFY on `channel`, to send in the transaction that commits outbox rows. */
  notify(channel: string): Statement<unknown>;
  /** Calls `onNotify` for each NOTIFY on `channel`, and after every (re)connect. */
  listen(
    dataSource: DataSource,
    channel: string,
    onNotify: () => void,
    options?: NotificationOptions,
  ): NotificationListener;
}
