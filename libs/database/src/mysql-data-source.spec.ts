import { DataSource } from 'typeorm';
import { allowsMultipleStatements, mysqlDataSourceOptions } from './mysql-data-source';

describe('mysqlDataSourceOptions', () => {
  const options = mysqlDataSourceOptions({ url: 'mysql://root@127.0.0.1:3306/any' });

  it('lets one query carry several statements, which allowsMultipleStatements reports', () => {
    expect(allowsMultipleStatements(new DataSource(options))).toBe(true);
  });

  it('reports a pool without multiple statements, set directly or through extra', () => {
    expect(
      allowsMultipleStatements(new DataSource({ ...options, multipleStatements: false })),
    ).toBe(false);
    const extra = { ...(options as { extra: object }).extra, multipleStatements: false };
    expect(allowsMultipleStatements(new DataSource({ ...options, extra } as typeof options))).toBe(
      false,
    );
  });
});
