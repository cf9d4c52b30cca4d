import { engineOf } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { vacuumed } from './vacuumed';

/**
 * Waits (at most `maxMs`) until InnoDB's history list is empty: every committed change
 * purged. A timed run that starts earlier shares the machine with the purge of the runs before
 * it (a relay run leaves 20,000 row changes behind, a consumer run 8,000), and which series
 * pays for that depends only on the order of the series. `trx_rseg_history_len` is in
 * INNODB_METRICS on MariaDB and MySQL alike, enabled by default (reading it needs the PROCESS
 * privilege); it is server-wide, so an open read view anywhere on the server holds it up: a
 * wait that runs out is logged, and the run goes ahead. On PostgreSQL it is a VACUUM instead
 * (see vacuumed).
 */
export async function purged(dataSource: DataSource, maxMs = 10_000): Promise<void> {
  if (engineOf(dataSource.options.type) === 'postgres') return vacuumed(dataSource);
  const started = Date.now();
  let length = NaN;
  while (Date.now() - started < maxMs) {
    const [row] = (await dataSource.query(
      "SELECT `COUNT` AS n FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'",
    )) as Array<{ n: string | number | null }>;
    // No such metric here: nothing to wait for.
    if (row === undefined || row.n === null) return;
    length = Number(row.n);
    if (length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(
    `purge wait gave up after ${maxMs} ms with ${length} transactions' changes unpurged\n`,
  );
}
