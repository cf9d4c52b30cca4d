import { Queryable } from './statements';
import { isTransientDbError } from './transient-error';

/** A table a start-up check could not read, with the driver's answer. */
export interface UnreadableTable {
  table: string;
  /** The driver's code (ER_NO_SUCH_TABLE, 42P01, ER_TABLEACCESS_DENIED_ERROR, 42501…) and message. */
  error: string;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The tables among `tables` that this connection cannot read: one `SELECT 1 … WHERE 1 = 0` per
 * table, which fails when the table is missing or the grant lacks. A minimal start-up check
 * (the packages' own table names); it proves no column, only that the table answers. An
 * unreachable database (a transient error) is thrown, not reported as a table fault.
 */
export async function unreadableTables(
  db: Queryable,
  tables: readonly string[],
): Promise<UnreadableTable[]> {
  const unreadable: UnreadableTable[] = [];
  for (const table of tables) {
    if (!PLAIN_NAME.test(table))
      throw new Error(`unreadableTables: "${table}" is not a plain name`);
    try {
      await db.query(`SELECT 1 FROM ${table} WHERE 1 = 0`);
    } catch (error) {
      if (isTransientDbError(error)) throw error;
      const e = error as { code?: string; message?: string };
      unreadable.push({ table, error: `${e.code ?? 'error'}: ${e.message ?? String(error)}` });
    }
  }
  return unreadable;
}
