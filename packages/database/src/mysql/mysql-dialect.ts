import { affectedRows } from '../affected-rows';
import type { SqlDialect } from '../sql-dialect';
import { sendAsOneQuery } from '../statements';
import { ensureDatabase } from './ensure-database';
import { isMysqlDuplicateKey, isTransientMysqlError } from './mysql-errors';
import { mysqlDataSourceOptions } from './mysql-data-source';

/** MySQL and MariaDB, on mysql2. */
export const mysqlDialect: SqlDialect = {
  engine: 'mysql',
  dataSourceOptions: mysqlDataSourceOptions,
  ensureDatabase,
  runStatements: sendAsOneQuery,
  affectedRows,
  isTransient: isTransientMysqlError,
  isDuplicateKey: isMysqlDuplicateKey,
};
