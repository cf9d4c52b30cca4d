import { DataSource } from 'typeorm';

/**
 * Waits (at most `maxMs`) until InnoDB's history list is empty: every committed change
 * purged. A timed run that starts earlier shares the machine with the purge of the runs before
 * it (a relay run leaves 20,000 row changes behind, a consumer run 8,000), and which series
 * pays for that depends only on the order of the series. `trx_rseg_history_len` is in
 * INNODB_METRICS on MariaDB and MySQL alike, enabled by default; it is server-wide, so other
 * work on a shared server can make this wait the whole `maxMs`.
 */
export async function purged(dataSource: DataSource, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const [row] = (await dataSource.query(
      `SELECT COUNT AS n FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'`,
    )) as Array<{ n: string | number }>;
    if (row === undefined || Number(row.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
