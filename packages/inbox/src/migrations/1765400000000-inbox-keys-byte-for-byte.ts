import { KeyColumns, KeyColumnsByteForByte } from '@outbox-inbox/database';

/** Per inbox table, the columns that name a consumer, an event, an aggregate or a topic. */
const KEY_COLUMNS: KeyColumns = {
  t_inbox: [
    ['consumer', 64],
    ['event_key', 190],
    ['event_type', 64],
  ],
  t_inbox_version: [
    ['consumer', 64],
    ['aggregate_type', 32],
    ['aggregate_id', 64],
  ],
  t_inbox_parked: [
    ['consumer', 64],
    ['aggregate_type', 32],
    ['aggregate_id', 64],
    ['event_key', 190],
    ['event_type', 64],
    ['source_topic', 249],
  ],
  t_inbox_dlq_replay: [
    ['consumer', 64],
    ['dlq_topic', 249],
    ['target_topic', 249],
  ],
  t_inbox_prune: [['consumer', 64]],
  t_inbox_skip: [
    ['consumer', 64],
    ['aggregate_type', 32],
    ['aggregate_id', 64],
  ],
};

/**
 * Consumer names, event keys, aggregate ids and topics compare byte for byte, as Kafka and
 * every producer compare them. MySQL/MariaDB's utf8mb4_unicode_ci ignored case (and trailing
 * spaces), so the inbox took `Parcel:A1:1` for a duplicate of `Parcel:a1:1` and skipped it, and
 * two aggregates shared one version gate. The key columns move to the server's NO PAD binary
 * collation. PostgreSQL's collations are deterministic already: nothing changes there.
 *
 * On MySQL/MariaDB this rebuilds the tables: run it while t_inbox is small (after a prune).
 * `down` fails with a duplicate key if rows that differ only in case exist by then.
 */
export class InboxKeysByteForByte1765400000000 extends KeyColumnsByteForByte {
  name = 'InboxKeysByteForByte1765400000000';
  protected keyColumns = KEY_COLUMNS;
}
