import { DataSource, DataSourceOptions } from 'typeorm';
import { allowsMultipleStatements } from '../run-statements';
import { mysqlDataSourceOptions } from './mysql-data-source';

describe('mysqlDataSourceOptions', () => {
  const options = mysqlDataSourceOptions({ url: 'mysql://root@127.0.0.1:3306/any' });

  it('lets one query carry several statements, which allowsMultipleStatements reports', () => {
    expect(allowsMultipleStatements(new DataSource(options))).toBe(true);
  });

  it('reports a pool without multiple statements, set directly or through extra', () => {
    const direct = { ...options, multipleStatements: false } as DataSourceOptions;
    expect(allowsMultipleStatements(new DataSource(direct))).toBe(false);
    const extra = { ...(options as { extra: object }).extra, multipleStatements: false };
    const viaExtra = { ...options, extra } as DataSourceOptions;
    expect(allowsMultipleStatements(new DataSource(viaExtra))).toBe(false);
  });
});
