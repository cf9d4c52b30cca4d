import type { SchemaProbe } from '@outbox-inbox/database';
import { BatchSenderCounters } from './relay/batch-sender';
import { DeadEventPolicy } from './relay/outbox-relay.options';
import { RelayFault } from './relay/relay-faults';

/** When the relay loop last went round, for readiness checks (epoch ms). */
export interface OutboxRelayHeartbeat {
  running: boolean;
  /** Start of the latest round. */
  lastTickAt: number;
  /** End of the wait the loop is in (poll interval or backoff); 0 while it works. */
  idleUntil: number;
}

/** Counters since the relay started. */
export interface OutboxRelayCounters extends BatchSenderCounters {
  /** Claims made ahead and handed back unsent: their lease no longer covered a send. */
  claimsHandedBack: number;
  /** Claims that took rows. */
  claimsWithRows: number;
  /** Their time from the claim's start to its rows in hand, summed (ms): the mean is the claim's share of a row's wait. */
  claimMsWithRows: number;
}

/** The outbox at a glance: what monitoring alerts on. Ids and counts are plain numbers. */
export interface OutboxStats {
  /** Rows per unsent status (SENT rows are not counted: that would scan the history). */
  backlog: { NEW: number; SENDING: number; DEAD: number };
  /** Age of the oldest NEW or SENDING row in ms; 0 when nothing waits. */
  oldestUnsentAgeMs: number;
  /** NEW rows that failed at least once and wait for their next attempt. */
  retryingRows: number;
  dead: number;
  /** Aggregates with a DEAD event and later unsent events held back behind it. */
  aggregatesBlockedByDead: number;
  deadPolicy: DeadEventPolicy;
  /** Counters of this process's relay since it started, when it runs here. */
  relay?: OutboxRelayCounters;
}

/** The relay of this process, read-only: what it did since start and whether its loop goes round. */
export interface OutboxRelayStats {
  counts(): Readonly<OutboxRelayCounters>;
  heartbeat(): OutboxRelayHeartbeat;
  /** What holds rows back now that no code can fix (missing table, topic, grant); empty when none. */
  faults(): RelayFault[];
}

/** The outbox table at a glance, read-only: one round of queries per call. */
export interface OutboxStatsSource {
  stats(): Promise<OutboxStats>;
}

/**
 * The read-only ports OutboxModule provides, by Nest token: the token is the port's name, so a
 * reader that knows this package's types only (metrics, health) injects one with
 * `@Inject('OutboxRelayStats' satisfies keyof OutboxReadPorts)`. OutboxRelayStats is null in a
 * process whose relay is off.
 */
export interface OutboxReadPorts {
  OutboxRelayStats: OutboxRelayStats | null;
  OutboxStatsSource: OutboxStatsSource;
  /** probeOutboxSchema on the outbox's DataSource: t_outbox, its columns and grants in place. */
  OutboxSchemaProbe: SchemaProbe;
}
