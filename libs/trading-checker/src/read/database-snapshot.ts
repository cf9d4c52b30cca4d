import { Connection, createConnection } from 'mysql2/promise';

/** A row as mysql2 returns it (big numbers as strings). */
export type Row = Record<string, unknown>;

/**
 * One database read inside a read-only consistent snapshot, held open for the whole check:
 * rows committing meanwhile cannot show a half-done transaction, and the order in which the
 * snapshots are opened (downstream first) is the order in which the services are read.
 */
export class DatabaseSnapshot {
  private constructor(
    readonly database: string,
    private readonly connection: Connection,
  ) {}

  static async open(mysqlUrl: string, database: string): Promise<DatabaseSnapshot> {
    const connection = await createConnection({
      uri: `${mysqlUrl}/${database}`,
      // Big ids and sums stay exact.
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: false,
    });
    try {
      await connection.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    } catch (error) {
      await connection.end();
      throw error;
    }
    return new DatabaseSnapshot(database, connection);
  }

  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.connection.query(sql, params))[0] as Row[];
  }

  /** Whether a table exists (older schemas lack the prune watermark, say). */
  async hasTable(table: string): Promise<boolean> {
    const rows = await this.query(
      'SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
      [table],
    );
    return rows.length > 0;
  }

  /**
   * Reads `sql` page by page in key order (keyset pagination: `sql` takes the last key seen
   * as its first parameter and must order by that key and end with `LIMIT ?`), so memory holds
   * one page whatever the table's size.
   */
  async *pages(
    sql: string,
    key: (row: Row) => string,
    start: string,
    pageSize: number,
    params: unknown[] = [],
  ): AsyncGenerator<Row[]> {
    let after = start;
    for (;;) {
      const rows = await this.query(sql, [after, ...params, pageSize]);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < pageSize) return;
      after = key(rows[rows.length - 1]);
    }
  }

  async close(): Promise<void> {
    try {
      await this.connection.query('COMMIT');
    } finally {
      await this.connection.end();
    }
  }
}

export const str = (value: unknown): string => String(value);
export const num = (value: unknown): number => Number(value);
export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
export const dateOrNull = (value: unknown): Date | null => (value ? new Date(value as Date) : null);
