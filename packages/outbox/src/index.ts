/** Nest module wiring writer, relay, operations and retention (forRoot, forRootAsync). */
export { OutboxModule } from './outbox.module';
export type { OutboxModuleExtras, OutboxModuleOptions } from './outbox.module';
/** What the opt-in start-up check (`checkOnStart`) covers besides t_outbox. */
export type { OutboxCheckOnStart } from './outbox.module-definition';
/** Adds events to t_outbox in the caller's transaction. */
export { OutboxWriter } from './writer/outbox-writer';
/** The multi-instance relay loop from t_outbox to Kafka (a Nest provider of OutboxModule). */
export { OutboxRelay } from './relay/outbox-relay';
/** A standalone relay on MySQL/MariaDB or PostgreSQL and Kafka, wired as OutboxModule wires it. */
export { createOutboxRelay } from './relay/create-outbox-relay';
export type { OutboxRelayConfig } from './relay/create-outbox-relay';
/** The ports the relay claims from and records outcomes to, and what a claim holds. */
export type { Claim, OutboxClaims, OutboxOutcomes } from './store/outbox-store.port';
export type { ClaimedRow } from './store/outbox-row';
/** Relay options and their defaults (OutboxModule and createOutboxRelay validate them). */
export { DEFAULT_RELAY_OPTIONS, OutboxRelayOptions } from './relay/outbox-relay.options';
export type { DeadEventPolicy } from './relay/outbox-relay.options';
/** The relay options from a service's OUTBOX_* environment variables. */
export { relayOptionsFromEnv } from './env/relay-env';
export type { OutboxRelayEnv } from './env/relay-env';
/** Stats, DEAD listing and requeue, retention. */
export { OutboxOperations } from './operations/outbox-operations';
export type {
  AggregateOutboxRow,
  DeadOutboxRow,
  DeadRowFilter,
  PruneOptions,
} from './operations/outbox-operations';
/** Who asked for requeueDead, and why (defined with the audit log, in @outbox-inbox/database). */
export type { OperatorActionAudit } from '@outbox-inbox/database';
/**
 * Read-only ports for monitoring: the relay's counters and heartbeat, the table's stats, and
 * the Nest tokens OutboxModule provides them under (the port's name, see OutboxReadPorts).
 */
export type {
  OutboxReadPorts,
  OutboxRelayCounters,
  OutboxRelayHeartbeat,
  OutboxRelayStats,
  OutboxStats,
  OutboxStatsSource,
} from './outbox-stats.port';
/** A missing table, column, grant or topic holding the relay's rows back (OutboxRelayStats.faults). */
export type { RelayFault } from './relay/relay-faults';
/** Deletes old SENT rows on a timer (registered by OutboxModule). */
export { DEFAULT_RETENTION, OutboxRetention } from './housekeeping/outbox-retention';
export type { OutboxRetentionOptions } from './housekeeping/outbox-retention';
/** Wakes the in-process relay when a transaction holding outbox rows commits. */
export { OutboxCommitNotifier } from './writer/outbox-commit-notifier';
/** Where the relay publishes; implement it to replace Kafka in tests. */
export type { OutboxMessage, OutboxPublisher, TopicBatch } from './publisher/outbox-publisher';
/** A publish refused for its topics (missing or denied): the relay holds the rows, never fails them. */
export { TOPIC_REFUSAL_CODES, TopicUnavailableError } from './publisher/topic-unavailable';
export type { RefusedTopic, TopicRefusalCode } from './publisher/topic-unavailable';
/** The kafkajs publisher (acks all, one request in flight, Java-compatible partitioner). */
export { KafkaOutboxPublisher } from './publisher/kafka-outbox-publisher';
export type {
  OutboxPublisherFactory,
  OutboxPublisherTuning,
} from './publisher/outbox-publisher-factory';
export type { OutboxKafkaOptions } from './publisher/kafka-outbox-publisher';
/** Migrations creating t_outbox; include them in each service's migrations list. */
export { OutboxMigrations } from './migrations/create-outbox-table.migration';
/** Whether t_outbox, its columns and its privileges are in place, as this service's user sees them. */
export { probeOutboxSchema } from './outbox-schema';
/** Row statuses. */
export { OutboxStatus } from './store/outbox-status';
/** Typed outbox error with a `code`, and every code as a list. */
export { OUTBOX_ERROR_CODES, OutboxError } from './outbox.errors';
export type { OutboxErrorCode } from './outbox.errors';
