import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { postgresServerUrl } from '@outbox-inbox/test-kit';

/** What a PostgreSQL figure depends on: the server's version and durability settings. */
export interface PostgresSettings {
  version: string;
  fsync: string;
  synchronous_commit: string;
  wal_level: string;
  shared_buffers: string;
}

/** Reads them from the server `on` is on (read only: the bench never changes them). */
export async function postgresSettings(on: DataSource | Client): Promise<PostgresSettings> {
  const sql = `SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync,
       current_setting('synchronous_commit') AS synchronous_commit,
       current_setting('wal_level') AS wal_level,
       current_setting('shared_buffers') AS shared_buffers`;
  if (on instanceof Client) return (await on.query<PostgresSettings>(sql)).rows[0];
  return ((await on.query(sql)) as PostgresSettings[])[0];
}

/** The shared server's settings (POSTGRES_URL or the local one), or undefined when it is down. */
export async function sharedPostgresSettings(): Promise<PostgresSettings | undefined> {
  const client = new Client({
    connectionString: `${postgresServerUrl()}/postgres`,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
    return await postgresSettings(client);
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
