import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** A login of its own on one test database, holding only the privileges a test grants it. */
export interface DatabaseUser {
  name: string;
  /** The test database's URL, as this user (no password: the test servers trust loopback). */
  url: string;
  /** Grants `privileges` ("SELECT, INSERT") on table `table` of the test database. */
  grant(privileges: string, table: string): Promise<void>;
  /** Takes its privileges away and drops it. */
  drop(): Promise<void>;
}

/**
 * Creates a user with no privilege on any table of `databaseUrl`'s database, through `admin`
 * (a DataSource on that database as its owner), on MySQL/MariaDB or PostgreSQL: what a
 * deployment whose grants are not run yet looks like. Drop it before the database.
 */
export async function createDatabaseUser(
  admin: Pick<DataSource, 'query' | 'options'>,
  databaseUrl: string,
): Promise<DatabaseUser> {
  const name = `u_${randomBytes(5).toString('hex')}`;
  const url = new URL(databaseUrl);
  url.username = name;
  url.password = '';
  const database = url.pathname.replace(/^\//, '');
  if (admin.options.type === 'postgres') {
    await admin.query(`CREATE ROLE ${name} LOGIN`);
    return {
      name,
      url: url.toString(),
      grant: async (privileges, table) => {
        await admin.query(`GRANT ${privileges} ON ${table} TO ${name}`);
      },
      drop: async () => {
        await admin.query(`DROP OWNED BY ${name}`);
        await admin.query(`DROP ROLE ${name}`);
      },
    };
  }
  await admin.query(`CREATE USER '${name}'@'%'`);
  return {
    name,
    url: url.toString(),
    grant: async (privileges, table) => {
      await admin.query(`GRANT ${privileges} ON \`${database}\`.${table} TO '${name}'@'%'`);
    },
    drop: async () => {
      await admin.query(`DROP USER '${name}'@'%'`);
    },
  };
}
