import { DataSource } from 'typeorm';

const DIGITS = `(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
  UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
  UNION ALL SELECT 8 UNION ALL SELECT 9)`;

/**
 * Inserts `rows` SENT rows (history a busy service keeps for its retention
 * period) in one INSERT…SELECT over a cross join of digit tables, which runs on MySQL and
 * MariaDB alike (no sequence engine, no recursive CTE depth limit).
 */
export async function insertSentHistory(dataSource: DataSource, rows: number): Promise<void> {
  for (let m = 0; m * 1_000_000 < rows; m++) {
    await dataSource.query(
      `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
         event_key, event_id, payload, headers, status, retry_count, next_retry_at,
         created_at, updated_at, sent_at)
       SELECT 'Order', CONCAT('hist', ?, '-', n), 1, 'OrderCreated',
         CONCAT('OrderCreated:hist', ?, '-', n, ':1'), UUID(), ?, '{}', 'SENT', 0,
         UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3)
       FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 100000 * g.d AS n
             FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} e, ${DIGITS} f, ${DIGITS} g) seq
       LIMIT ?`,
      [
        m,
        m,
        JSON.stringify({ history: 'x'.repeat(300) }),
        Math.min(1_000_000, rows - m * 1_000_000),
      ],
    );
  }
}
