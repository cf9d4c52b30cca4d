import type { DataSource } from 'typeorm';

/**
 * True when the mysql2 pool behind `dataSource` lets one query carry several statements: its
 * `multipleStatements`, from `extra` first, as TypeORM merges `extra` over its own options.
 */
export function mysqlPoolAllowsMultipleStatements(
  dataSource: Pick<DataSource, 'options'>,
): boolean {
  const options = dataSource.options as {
    multipleStatements?: boolean;
    extra?: { multipleStatements?: boolean };
  };
  return (options.extra?.multipleStatements ?? options.multipleStatements) === true;
}
