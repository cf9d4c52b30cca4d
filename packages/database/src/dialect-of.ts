import type { DataSource, DataSourceOptions } from 'typeorm';
import { loadedDialect } from './dialect-registry';
import { nodeRequire } from './node-require';
import type { SqlDialect, SqlEngine } from './sql-dialect';

/** The engine behind a TypeORM `type`; any other type is refused, naming it. */
export function engineOf(type: DataSourceOptions['type'] | string): SqlEngine {
  if (type === 'mysql' || type === 'mariadb') return 'mysql';
  if (type === 'postgres') return 'postgres';
  throw new Error(
    `@outbox-inbox/database runs on MySQL/MariaDB ("mysql", "mariadb") and PostgreSQL ("postgres"), not on a DataSource of type "${type}"`,
  );
}

/**
 * The dialect of `dataSource`'s engine. Each dialect is loaded from its own folder (its
 * subpath in the published package) the first time it is asked for, so the package's entry
 * loads neither driver: an app on PostgreSQL never needs mysql2 installed, nor the reverse.
 * A dialect whose subpath the app already imported is taken as it registered itself.
 */
export function sqlDialectOf(dataSource: Pick<DataSource, 'options'>): SqlDialect {
  const engine = engineOf(dataSource.options.type);
  const loaded = loadedDialect(engine);
  if (loaded) return loaded;
  return engine === 'mysql'
    ? (nodeRequire('./mysql') as typeof import('./mysql')).mysqlDialect
    : (nodeRequire('./postgres') as typeof import('./postgres')).postgresDialect;
}
