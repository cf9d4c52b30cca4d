import { createConnection } from 'mysql2/promise';

/**
 * Creates the database named in `url` when it does not exist yet (utf8mb4). Used by the
 * migration command, the test harness and the local stack; production deployments usually
 * create databases out of band, and then this is a no-op.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]{1,64}$/.test(database)) {
    throw new Error(`ensureDatabase: "${database}" is not a plain database name`);
  }
  parsed.pathname = '/';
  const connection = await createConnection(parsed.toString());
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
}
