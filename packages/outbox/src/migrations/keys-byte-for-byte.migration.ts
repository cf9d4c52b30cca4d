import { KeyColumns, KeyColumnsByteForByte } from '@outbox-inbox/database';

/** t_outbox's identity columns: what names an event and its aggregate. */
const KEY_COLUMNS: KeyColumns = {
  t_outbox: [
    ['aggregate_type', 32],
    ['aggregate_id', 64],
    ['event_type', 64],
    ['event_key', 190],
  ],
};

/**
 * Event keys, aggregate ids and types compare byte for byte, as Kafka and every consumer
 * compare them. MySQL/MariaDB's utf8mb4_unicode_ci ignored case (and trailing spaces), so
 * `Parcel:a1:1` and `Parcel:A1:1` were one event: the writer took the second for a duplicate
 * and dropped it. The key columns move to the server's NO PAD binary collation. PostgreSQL's
 * collations are deterministic already: nothing changes there.
 *
 * On MySQL/MariaDB this rebuilds t_outbox: run it while the table is small (after retention).
 * `down` fails with a duplicate key if rows that differ only in case exist by then.
 */
export class OutboxKeysByteForByte1765400000000 extends KeyColumnsByteForByte {
  name = 'OutboxKeysByteForByte1765400000000';
  protected keyColumns = KEY_COLUMNS;
}
