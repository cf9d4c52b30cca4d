import { DataSource, DataSourceOptions } from 'typeorm';

/**
 * The connections the relay's claimer and finalizer work on, as the relay loop sees them:
 * opened on first use, closed when the relay stops.
 */
export interface RelayConnections {
  readonly isOpen: boolean;
  /** Opens them on first use (and again after a failed attempt); concurrent calls share one. */
  open(): Promise<void>;
  /** Closes a pool of the relay's own; the application's DataSource stays open. */
  close(): Promise<void>;
}

/**
 * The DataSource the relay's claimer and finalizer query, and its RelayConnections: a small pool
 * of `ownConnections` on the same database as `dataSource` (so a saturated request pool does not
 * stall publishing), or `dataSource` itself when `ownConnections` is 0.
 */
export function relayPool(
  dataSource: DataSource,
  ownConnections: number,
): { dataSource: DataSource; connections: RelayConnections } {
  const own = ownConnections > 0 ? ownPool(dataSource, ownConnections) : undefined;
  const db = own ?? dataSource;
  let opening: Promise<unknown> | undefined;
  const connections: RelayConnections = {
    get isOpen() {
      return db.isInitialized;
    },
    async open() {
      if (db.isInitialized) return;
      opening ??= db.initialize().finally(() => (opening = undefined));
      await opening;
    },
    async close() {
      if (own?.isInitialized) await own.destroy();
    },
  };
  return { dataSource: db, connections };
}

function ownPool(dataSource: DataSource, connections: number): DataSource {
  const options = dataSource.options as DataSourceOptions & { extra?: Record<string, unknown> };
  // TypeORM hands `poolSize` to the driver as its pool's size, unless `extra` names that size
  // in the driver's own words (mysql2's connectionLimit, node-postgres's max), which the
  // database package's options do: dropped here, `poolSize` sizes the pool on either engine.
  const { connectionLimit: _mysql2, max: _pg, ...extra } = options.extra ?? {};
  return new DataSource({
    ...options,
    poolSize: connections,
    extra,
    entities: [],
    migrations: [],
    subscribers: [],
    migrationsRun: false,
    synchronize: false,
  } as DataSourceOptions);
}
