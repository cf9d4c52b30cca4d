import { engineOf, sqlDialectOf } from './dialect-of';

describe('sqlDialectOf', () => {
  it('gives MySQL and MariaDB DataSources the mysql dialect, PostgreSQL its own', () => {
    expect(sqlDialectOf({ options: { type: 'mysql' } as never }).engine).toBe('mysql');
    expect(sqlDialectOf({ options: { type: 'mariadb' } as never }).engine).toBe('mysql');
    expect(sqlDialectOf({ options: { type: 'postgres' } as never }).engine).toBe('postgres');
  });

  it('says how each engine claims and asks the DataSource whether several statements share a query', () => {
    const postgres = { options: { type: 'postgres' } as never };
    expect(sqlDialectOf(postgres).claimStyle).toBe('one-statement');
    expect(sqlDialectOf(postgres).severalStatementsPerQuery(postgres)).toBe(false);
    const mysql = (extra: object) => ({ options: { type: 'mysql', ...extra } as never });
    expect(sqlDialectOf(mysql({})).claimStyle).toBe('transaction');
    expect(sqlDialectOf(mysql({})).severalStatementsPerQuery(mysql({}))).toBe(false);
    const flagged = mysql({ multipleStatements: true });
    expect(sqlDialectOf(flagged).severalStatementsPerQuery(flagged)).toBe(true);
  });

  it('refuses any other engine, naming it', () => {
    expect(() => engineOf('sqlite')).toThrow('not on a DataSource of type "sqlite"');
  });
});
