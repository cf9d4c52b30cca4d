import { engineOf, sqlDialectOf } from './dialect-of';

describe('sqlDialectOf', () => {
  it('gives MySQL and MariaDB DataSources the mysql dialect, PostgreSQL its own', () => {
    expect(sqlDialectOf({ options: { type: 'mysql' } as never }).engine).toBe('mysql');
    expect(sqlDialectOf({ options: { type: 'mariadb' } as never }).engine).toBe('mysql');
    expect(sqlDialectOf({ options: { type: 'postgres' } as never }).engine).toBe('postgres');
  });

  it('refuses any other engine, naming it', () => {
    expect(() => engineOf('sqlite')).toThrow('not on a DataSource of type "sqlite"');
  });
});
