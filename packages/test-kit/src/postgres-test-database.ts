import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { TestDatabase } from './test-database';

const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432';
const POSTGRES_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

/** The PostgreSQL server the tests use: POSTGRES_URL, or the local one (trust auth). */
export function postgresServerUrl(): string {
  return (process.env.POSTGRES_URL ?? LOCAL_POSTGRES_URL).replace(/\/+$/, '');
}

/**
 * An empty PostgreSQL database with a unique name for one test file, on the server of
 * `postgresServerUrl()` (or `server`, a URL without a database); `drop()` removes it, closing
 * what still uses it.
 */
export async function createPostgresTestDatabase(
  label: string,
  server = postgresServerUrl(),
): Promise<TestDatabase> {
  const name = `t_${label.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE "${name}" ENCODING 'UTF8'`);
  return {
    name,
    url: `${server}/${name}`,
    drop: () => adminQuery(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function adminQuery(server: string, sql: string): Promise<void> {
  const client = new Client({
    connectionString: `${server}/postgres`,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `no PostgreSQL at ${server}: start it (${POSTGRES_START}) or set POSTGRES_URL`,
      { cause: error },
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
