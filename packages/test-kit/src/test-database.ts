import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';

/** A throwaway database of its own for one test file. */
export interface TestDatabase {
  name: string;
  /** mysql://…/<name>, ready for a DataSource. */
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database with a unique name on the server at `serverUrl`, so test files
 * running in parallel never see each other's rows.
 */
export async function createTestDatabase(serverUrl: string, label: string): Promise<TestDatabase> {
  const name = `t_${label.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(
    serverUrl,
    `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  return {
    name,
    url: `${serverUrl}/${name}`,
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS \`${name}\``),
  };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const connection = await createConnection({ uri: serverUrl, connectTimeout: 5_000 });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}
