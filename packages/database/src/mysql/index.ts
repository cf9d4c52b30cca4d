/** MySQL and MariaDB on mysql2: this subpath loads the driver; the package's entry does not. */
export { mysqlDialect } from './mysql-dialect';
/** DataSource options (READ COMMITTED sessions, deferred BEGIN, multi-statement queries). */
export { mysqlDataSourceOptions, openMysqlDataSource } from './mysql-data-source';
export type { MysqlDataSourceConfig } from './mysql-data-source';
/** Creates the database named in a URL when it does not exist yet (utf8mb4). */
export { ensureDatabase } from './ensure-database';
