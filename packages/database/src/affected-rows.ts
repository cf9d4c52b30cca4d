/**
 * How many rows a write (INSERT, UPDATE, DELETE) changed, from what `query()` answered: mysql2
 * answers a write with a ResultSetHeader (`affectedRows`); TypeORM may wrap it as
 * `[rows, affected]`. Anything else (no result, a SELECT's rows) changed nothing.
 */
export function affectedRows(result: unknown): number {
  if (Array.isArray(result)) return typeof result[1] === 'number' ? result[1] : 0;
  const affected = (result as { affectedRows?: unknown } | null | undefined)?.affectedRows;
  return typeof affected === 'number' ? affected : Number(affected ?? 0) || 0;
}
