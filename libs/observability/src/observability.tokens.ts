import type { InboxReadPorts } from '@outbox-inbox/inbox';
import type { OutboxReadPorts } from '@outbox-inbox/outbox';

/** The BrokerProbe of a service on Kafka (null for a service without Kafka). */
export const BROKER_PROBE = Symbol('BROKER_PROBE');
/** The resolved ReadinessThresholds. */
export const READINESS_THRESHOLDS = Symbol('READINESS_THRESHOLDS');

/*
 * The packages' read-only ports, by the names OutboxModule and InboxModule provide them under:
 * strings that the compiler checks against the packages' port lists, so that observability
 * loads none of the packages' code (a layer rule, observability-reads-packages-through-ports).
 */
/** OutboxRelayStats: the relay's counters and heartbeat (null where the relay is off). */
export const OUTBOX_RELAY_STATS = 'OutboxRelayStats' satisfies keyof OutboxReadPorts;
/** OutboxStatsSource: the outbox table at a glance. */
export const OUTBOX_STATS_SOURCE = 'OutboxStatsSource' satisfies keyof OutboxReadPorts;
/** InboxCounters: the consumer's counters since start. */
export const INBOX_COUNTERS = 'InboxCounters' satisfies keyof InboxReadPorts;
/** InboxStatsSource: the inbox's stats, open gaps and group membership. */
export const INBOX_STATS_SOURCE = 'InboxStatsSource' satisfies keyof InboxReadPorts;
/** OutboxSchemaProbe: t_outbox, its columns and grants, on the outbox's DataSource. */
export const OUTBOX_SCHEMA_PROBE = 'OutboxSchemaProbe' satisfies keyof OutboxReadPorts;
/** InboxSchemaProbe: the inbox's tables, columns and grants, on its DataSource. */
export const INBOX_SCHEMA_PROBE = 'InboxSchemaProbe' satisfies keyof InboxReadPorts;
/** OwnSchema: this service's components' schema probes together. */
export const OWN_SCHEMA = Symbol('OWN_SCHEMA');
