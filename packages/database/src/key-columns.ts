import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from './dialect-of';

/** Per table, its key columns: name and VARCHAR length (all NOT NULL). */
export type KeyColumns = Record<string, Array<[column: string, length: number]>>;

/** Byte-for-byte collations, best first: MariaDB's, MySQL 8's; both NO PAD (`a` ≠ `a `). */
const BYTE_COLLATIONS = ['utf8mb4_nopad_bin', 'utf8mb4_0900_bin'];

/**
 * For migrations: makes `columns` compare byte for byte, as Kafka and every producer compare
 * keys (`byte-for-byte`), or back to the case-insensitive utf8mb4_unicode_ci the tables were
 * created with (`case-insensitive`). On MySQL/MariaDB it rebuilds each table. PostgreSQL's
 * collations are deterministic (equal only when the bytes are): nothing to change there.
 */
export async function collateKeyColumns(
  queryRunner: QueryRunner,
  columns: KeyColumns,
  comparison: 'byte-for-byte' | 'case-insensitive',
): Promise<void> {
  if (engineOf(queryRunner.connection.options.type) === 'postgres') return;
  const collation =
    comparison === 'case-insensitive' ? 'utf8mb4_unicode_ci' : await byteCollation(queryRunner);
  for (const [table, keys] of Object.entries(columns)) {
    const changes = keys.map(
      ([name, length]) =>
        `MODIFY ${name} VARCHAR(${length}) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE ${table} ${changes.join(', ')}`);
  }
}

/** The server's NO PAD binary collation, or utf8mb4_bin (PAD SPACE) on a server with neither. */
async function byteCollation(queryRunner: QueryRunner): Promise<string> {
  const rows = (await queryRunner.query(
    `SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS
      WHERE COLLATION_NAME IN (${BYTE_COLLATIONS.map(() => '?').join(', ')})`,
    BYTE_COLLATIONS,
  )) as Array<{ name: string }>;
  const present = new Set(rows.map((r) => r.name));
  return BYTE_COLLATIONS.find((c) => present.has(c)) ?? 'utf8mb4_bin';
}

/**
 * A migration that makes `keyColumns` compare byte for byte (`up`) and undoes it (`down`):
 * a package's migration extends it with its `name` and its tables' key columns.
 */
export abstract class KeyColumnsByteForByte implements MigrationInterface {
  abstract readonly name: string;
  protected abstract readonly keyColumns: KeyColumns;

  async up(queryRunner: QueryRunner): Promise<void> {
    await collateKeyColumns(queryRunner, this.keyColumns, 'byte-for-byte');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await collateKeyColumns(queryRunner, this.keyColumns, 'case-insensitive');
  }
}
