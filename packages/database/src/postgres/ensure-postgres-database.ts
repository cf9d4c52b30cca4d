import { Client } from 'pg';

/**
 * Creates the database named in `url` when it does not exist yet (UTF8), connecting to the
 * server's `postgres` database to do it. PostgreSQL has no CREATE DATABASE IF NOT EXISTS, so
 * a concurrent creation counts as done: duplicate_database (42P04), or, when both passed the
 * look-up at once, the catalog's own unique index (23505 on pg_database_datname_index).
 */
export async function ensurePostgresDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]{1,63}$/.test(database)) {
    throw new Error(`ensureDatabase: "${database}" is not a plain database name`);
  }
  parsed.pathname = '/postgres';
  const client = new Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE "${database}" ENCODING 'UTF8'`).catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw error;
    });
  } finally {
    await client.end();
  }
}
