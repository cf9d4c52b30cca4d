import { registerDialect } from '../dialect-registry';
import { affectedRows } from '../affected-rows';
import type { SqlDialect } from '../sql-dialect';
import { ensureDatabase } from './ensure-database';
import { isMysqlDuplicateKey, isTransientMysqlError } from './mysql-errors';
import { mysqlDataSourceOptions } from './mysql-data-source';
import { mysqlPoolAllowsMultipleStatements } from './multiple-statements';

/**
 * MySQL and MariaDB, on mysql2. Several statements travel in one query only where the pool has
 * `multipleStatements` (mysqlDataSourceOptions turns it on; an adopter's own DataSource may
 * not). An UPDATE cannot answer its rows, so rows are claimed in a transaction.
 */
export const mysqlDialect: SqlDialect = {
  engine: 'mysql',
  dataSourceOptions: mysqlDataSourceOptions,
  ensureDatabase,
  severalStatementsPerQuery: mysqlPoolAllowsMultipleStatements,
  claimStyle: 'transaction',
  affectedRows,
  isTransient: isTransientMysqlError,
  isDuplicateKey: isMysqlDuplicateKey,
};

registerDialect(mysqlDialect);
