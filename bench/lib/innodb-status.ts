import { Pool } from 'mysql2/promise';

/** Server-wide InnoDB counters that show lock contention and log-flush pressure. */
export interface InnodbCounters {
  rowLockWaits: number;
  rowLockTimeMs: number;
  logWaits: number;
}

/** Reads the counters (they are server-wide: on a shared server they include others' work). */
export async function innodbCounters(pool: Pool): Promise<InnodbCounters> {
  const [rows] = await pool.query(
    `SHOW GLOBAL STATUS WHERE Variable_name IN
       ('Innodb_row_lock_waits', 'Innodb_row_lock_time', 'Innodb_log_waits')`,
  );
  const value = (name: string) =>
    Number(
      (rows as Array<{ Variable_name: string; Value: string }>).find(
        (r) => r.Variable_name === name,
      )?.Value ?? NaN,
    );
  return {
    rowLockWaits: value('Innodb_row_lock_waits'),
    rowLockTimeMs: value('Innodb_row_lock_time'),
    logWaits: value('Innodb_log_waits'),
  };
}

/** `after - before`, field by field. */
export function counterDelta(before: InnodbCounters, after: InnodbCounters): InnodbCounters {
  return {
    rowLockWaits: after.rowLockWaits - before.rowLockWaits,
    rowLockTimeMs: after.rowLockTimeMs - before.rowLockTimeMs,
    logWaits: after.logWaits - before.logWaits,
  };
}

/** EXPLAIN of each statement: the access type and key MariaDB picks (const/PRIMARY is ideal). */
export async function explainAccess(
  pool: Pool,
  statements: Array<[string, unknown[]]>,
): Promise<string[]> {
  const plans: string[] = [];
  for (const [sql, params] of statements) {
    const [rows] = await pool.query(`EXPLAIN ${sql}`, params);
    const row = (
      rows as Array<{
        table: string | null;
        type: string | null;
        key: string | null;
        Extra: string | null;
      }>
    )[0];
    // A primary-key lookup of a missing row reads no table: "Impossible WHERE ... const tables".
    plans.push(row?.type ? `${row.table}: ${row.type}/${row.key ?? '-'}` : (row?.Extra ?? '?'));
  }
  return plans;
}
