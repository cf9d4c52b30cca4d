import type { InboxStatsSource } from '@outbox-inbox/inbox';
import type { OutboxRelayStats, OutboxStatsSource } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';
import { BrokerProbe } from './broker-probe';
import { ReadinessThresholds } from './readiness-thresholds';
import { relayStall } from './relay-stall';

/** One component in `GET /health/details`. */
export interface ComponentHealth {
  /** `up`; `degraded`: working, but something needs attention; `down`: unreachable or stuck. */
  status: 'up' | 'degraded' | 'down';
  /** Why it is not up. */
  reason?: string;
  [detail: string]: unknown;
}

/** What `GET /health/details` answers (always 200 while the process answers). */
export interface HealthDetails {
  /** `ok` when every component is up, else `degraded`. */
  status: 'ok' | 'degraded';
  components: Record<string, ComponentHealth>;
}

/** What the details are read from; absent parts are left out. */
export interface HealthSources {
  dataSource: DataSource;
  thresholds: ReadinessThresholds;
  broker?: BrokerProbe | null;
  relay?: OutboxRelayStats | null;
  outbox?: OutboxStatsSource | null;
  inbox?: InboxStatsSource | null;
}

/**
 * Everything an operator wants to know about the pipeline, and none of it decides readiness:
 * an unreachable broker, DEAD or old unsent outbox rows, dead letters, open gaps, a blocked
 * consumer and its lag are shared conditions (every instance sees the same), and an
 * orchestrator that took instances out for them would take them all out, the pay-callback
 * endpoint with them. Readiness asks only whether this instance can do its own work.
 */
export async function readHealthDetails(sources: HealthSources): Promise<HealthDetails> {
  const { thresholds } = sources;
  const timed = <T>(work: () => Promise<T>) => withTimeout(work(), thresholds.checkTimeoutMs);
  const checks: Array<[string, () => Promise<ComponentHealth>]> = [
    [
      'database',
      async () => {
        await timed(() => sources.dataSource.query('SELECT 1'));
        return { status: 'up' };
      },
    ],
  ];
  const { broker, relay, outbox, inbox } = sources;
  if (broker) {
    checks.push([
      'broker',
      async () => ({ status: 'up', brokers: await timed(() => broker.brokers()) }),
    ]);
  }
  if (relay) {
    checks.push([
      'outboxRelay',
      async () => {
        const stalled = relayStall(relay.heartbeat(), thresholds.relayStallMs, Date.now());
        if (stalled) return { status: 'down', reason: stalled };
        // A missing or denied topic holds rows back: degraded, named, and no readiness matter.
        const faults = relay.faults();
        if (faults.length === 0) return { status: 'up' };
        const reason = faults
          .map((f) => `${f.kind} ${f.subject}: ${f.code} since ${f.since}; ${f.remedy}`)
          .join('; ');
        return { status: 'degraded', reason, faults };
      },
    ]);
  }
  if (outbox) {
    checks.push([
      'outbox',
      async () => {
        const stats = await timed(() => outbox.stats());
        const { oldestUnsentAgeMs, dead } = stats;
        const reasons = [
          ...(dead > 0 ? [`${dead} DEAD row(s) wait for an operator`] : []),
          ...(oldestUnsentAgeMs > thresholds.outboxMaxAgeMs
            ? [
                `the oldest unsent row is ${oldestUnsentAgeMs} ms old (limit ${thresholds.outboxMaxAgeMs} ms)`,
              ]
            : []),
        ];
        return {
          status: reasons.length > 0 ? 'degraded' : 'up',
          ...(reasons.length > 0 && { reason: reasons.join('; ') }),
          oldestUnsentAgeMs,
          dead,
          backlog: stats.backlog,
        };
      },
    ]);
  }
  if (inbox) {
    checks.push([
      'inbox',
      async () => {
        const stats = await timed(() => inbox.stats());
        const reasons = [
          ...(!stats.group.joined ? ['the consumer has not joined its group yet'] : []),
          ...(stats.group.rejoiningSeconds > 0
            ? [
                `rejoining its group for ${Math.round(stats.group.rejoiningSeconds)} s (a rebalance)`,
              ]
            : []),
          ...(stats.blocked.seconds > 0
            ? [`blocked for ${Math.round(stats.blocked.seconds)} s by an unavailable dependency`]
            : []),
          ...(stats.openGaps.length > 0 ? [`${stats.openGaps.length} open gap(s)`] : []),
          ...(stats.deadLetterTopicMessages
            ? [`${stats.deadLetterTopicMessages} message(s) in the dead-letter topic`]
            : []),
        ];
        return {
          status: reasons.length > 0 ? 'degraded' : 'up',
          ...(reasons.length > 0 && { reason: reasons.join('; ') }),
          blocked: stats.blocked,
          group: stats.group,
          openGaps: stats.openGaps.length,
          parkedNow: stats.parkedNow,
          deadLetterTopicMessages: stats.deadLetterTopicMessages,
        };
      },
    ]);
  }
  const results = await Promise.all(
    checks.map(async ([name, check]): Promise<[string, ComponentHealth]> => {
      try {
        return [name, await check()];
      } catch (error) {
        return [name, { status: 'down', reason: (error as Error)?.message ?? String(error) }];
      }
    }),
  );
  const components = Object.fromEntries(results);
  const ok = results.every(([, c]) => c.status === 'up');
  return { status: ok ? 'ok' : 'degraded', components };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
