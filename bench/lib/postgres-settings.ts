import { DataSource } from 'typeorm';

/** What a PostgreSQL figure depends on: the server's version and durability settings. */
export interface PostgresSettings {
  version: string;
  fsync: string;
  synchronous_commit: string;
  wal_level: string;
  shared_buffers: string;
}

/** Reads them from the server `dataSource` is on (read only: the bench never changes them). */
export async function postgresSettings(dataSource: DataSource): Promise<PostgresSettings> {
  const [row] = (await dataSource.query(
    `SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync,
       current_setting('synchronous_commit') AS synchronous_commit,
       current_setting('wal_level') AS wal_level,
       current_setting('shared_buffers') AS shared_buffers`,
  )) as PostgresSettings[];
  return row;
}
