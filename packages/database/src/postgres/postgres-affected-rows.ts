/**
 * How many rows a PostgreSQL write changed. TypeORM answers an UPDATE or DELETE with
 * `[rows, rowCount]` and anything else with its rows, so an INSERT counts the rows its
 * `RETURNING` clause gave back (`ON CONFLICT DO NOTHING RETURNING 1`: none for a duplicate).
 */
export function postgresAffectedRows(result: unknown): number {
  if (!Array.isArray(result)) return 0;
  if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[1];
  }
  return result.length;
}
