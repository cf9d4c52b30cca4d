/** Nest module: InboxModule.forRoot / forRootAsync provide the transport and operations. */
export { InboxModule } from './inbox.module';
export type { InboxModuleExtras } from './inbox.module';
/** Options of InboxModule.forRoot: retry policy, blocked backoff, topic creation. */
export type {
  DeliveryPosition,
  InboxModuleOptions,
  InboxBlockedBackoff,
  InboxRetryPolicy,
  InboxTopicCreation,
} from './inbox.options';
/** The default failure classifier (permanent / transient / deployment / retry), to wrap in your own. */
export { classifyFailure } from './classify-failure';
export type { FailureClassifier, FailureKind } from './classify-failure';
/** A partition paused, and why: a dependency down, a half-done deployment (GET /inbox/stats: blocked). */
export type { BlockCause, BlockedPartition } from './metrics/partition-blocks';
/** Why the consumer is not reading now (InboxStats.consumerFault): Kafka's code, its subject, the remedy. */
export type { ConsumerFault } from './metrics/consumer-fault';
/**
 * Inbox options from a service's environment: the consumer group's timing (KAFKA_SESSION_TIMEOUT_MS,
 * KAFKA_HEARTBEAT_INTERVAL_MS, KAFKA_FETCH_MAX_WAIT_MS) and the inbox's own (INBOX_DEDUP_WINDOW_MS,
 * INBOX_BLOCKED_BACKOFF_MAX_MS, INBOX_GAP_ALERT_MS).
 */
export { groupTimingFromEnv } from './env/group-timing-env';
export { inboxOptionsFromEnv } from './env/inbox-env';
/** Fills defaults and validates InboxModule options. */
export { resolveInboxOptions } from './inbox.options';
/** The Nest custom transport: connect with app.connectMicroservice({ strategy }). */
export { InboxTransport } from './transport/inbox-transport';
/** The @Ctx() of an inbox handler: the transaction's EntityManager and where the event came from. */
export { InboxContext } from './handlers/inbox-context';
export type { InboxDelivery } from './handlers/inbox-context';
/** The @Ctx() of an @OnEventBatch handler: the transaction's EntityManager and each event's origin. */
export { InboxBatchContext } from './handlers/inbox-context';
export type { InboxBatchDelivery } from './handlers/inbox-context';
/** Declares an inbox handler of an event definition, taking events one by one or in runs. */
export { OnEvent, OnEventBatch } from './handlers/on-event.decorator';
export type { OnEventOptions } from './handlers/on-event.decorator';
/** Typed inbox errors; NonRetryableError sends a message straight to the dead-letter topic. */
export { InboxError, NonRetryableError } from './inbox.errors';
export type { DeadLetterCode, InboxErrorCode } from './inbox.errors';
/** Every inbox error code, and the ones a dead letter's inbox-error-code header can carry. */
export { DEAD_LETTER_CODES, INBOX_ERROR_CODES } from './inbox.errors';
/** Stats, open gaps, an aggregate's deliveries, skipping a gap, pruning. */
export { InboxOperations } from './operations/inbox-operations';
/** The dead letters: listing, and replay to the consumer's own retry topic (or a dry run). */
export { InboxDeadLetters } from './operations/inbox-dead-letters';
export type { DeadLetterMessage } from './operations/inbox-dead-letters';
/** Who asked for a replay, and why (defined with the audit log, in @outbox-inbox/database). */
export type { OperatorActionAudit } from '@outbox-inbox/database';
export type { ReplayRequest, ReplayResult } from './operations/replay-plan';
/** Shapes of GET /inbox/deliveries: an aggregate's events as this inbox took them in. */
export type { AggregateSelector, InboxDeliveryRecord } from './operations/inbox-deliveries';
/** Shapes of POST /inbox/gaps/skip: skip an aggregate's missing version on purpose. */
export type { SkipVersionRequest, SkipVersionResult } from './operations/skip-version';
/** Shapes of GET /inbox/stats. */
export type { InboxStats, OpenGap } from './operations/inbox-stats';
/** Counters of this process since start. */
export { InboxMetrics } from './metrics/inbox-metrics';
/**
 * Read-only ports for monitoring: the consumer's counters, the inbox's stats, and the Nest
 * tokens InboxModule provides them under (the port's name, see InboxReadPorts).
 */
export type {
  InboxCounters,
  InboxLatencyListener,
  InboxReadPorts,
  InboxStatsSource,
  PartitionLag,
} from './inbox-stats.port';
/** Provide one (from a global module) to settle each message under a context of your own. */
export { InboxMessageScope } from './transport/message-scope';
/** Headers the inbox adds to dead-lettered messages. */
export { DeadLetterHeader } from './dead-letter/dead-letter-headers';
/** What became of a delivered message. */
export type { InboxOutcome } from './apply/inbox-processor';
/** Schema migrations (t_inbox, t_inbox_version, t_inbox_parked, t_inbox_dlq_replay, t_inbox_prune). */
export { InboxMigrations } from './migrations';
/** Whether the inbox's tables, columns and privileges are in place, as this service's user sees them. */
export { probeInboxSchema } from './inbox-schema';
