import { DataSource } from 'typeorm';

/**
 * PostgreSQL's counterpart of `purged`: a VACUUM of the bench's own database, so that the
 * dead row versions one timed run left behind (a relay run updates every row twice) are
 * cleaned before the next run starts rather than by autovacuum during it, whichever series
 * that happens to be. The database is the bench's own, so the VACUUM touches nothing else.
 */
export async function vacuumed(dataSource: DataSource): Promise<void> {
  await dataSource.query('VACUUM');
}
