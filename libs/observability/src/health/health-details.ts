import type { HealthIndicatorResult } from '@nestjs/terminus';
import { withTimeout } from '@outbox-inbox/database';
import type { InboxHealthIndicator } from '@outbox-inbox/inbox/health';
import type { OutboxHealthIndicator } from '@outbox-inbox/outbox/health';
import { DataSource } from 'typeorm';
import { BrokerProbe } from './broker-probe';
import { describeOwnSchemaFaults, OwnSchema } from './own-schema';
import { ReadinessThresholds } from './readiness-thresholds';

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
  /** This service's own tables and grants (readiness fails while one is missing). */
  schema?: OwnSchema;
  broker?: BrokerProbe | null;
  /** The outbox package's indicator: the relay (`outboxRelay`) and the backlog (`outbox`). */
  outbox?: OutboxHealthIndicator | null;
  /** The inbox package's indicator: its backlog (`inbox`). */
  inbox?: InboxHealthIndicator | null;
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
  const { schema, broker, outbox, inbox } = sources;
  if (schema?.probed) {
    checks.push([
      'schema',
      async () => {
        const faults = await timed(() => schema.faults());
        return faults.length > 0
          ? { status: 'down', reason: describeOwnSchemaFaults(faults), faults }
          : { status: 'up' };
      },
    ]);
  }
  if (broker) {
    checks.push([
      'broker',
      async () => ({ status: 'up', brokers: await timed(() => broker.brokers()) }),
    ]);
  }
  const { relayStallMs: stallMs, outboxMaxAgeMs: maxUnsentAgeMs, checkTimeoutMs } = thresholds;
  if (outbox) {
    checks.push(
      ['outboxRelay', async () => component(outbox.checkRelay('outboxRelay', { stallMs }))],
      [
        'outbox',
        async () =>
          component(
            await outbox.checkBacklog('outbox', { maxUnsentAgeMs, timeoutMs: checkTimeoutMs }),
          ),
      ],
    );
  }
  if (inbox) {
    checks.push([
      'inbox',
      async () => component(await inbox.checkBacklog('inbox', { timeoutMs: checkTimeoutMs })),
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

/**
 * A package indicator's answer as a component: `down` with its message as the reason,
 * `degraded` when it lists warnings (shared conditions), else `up`; its data alongside.
 */
function component(result: HealthIndicatorResult): ComponentHealth {
  const [{ status, message, warnings = [], ...data }] = Object.values(result);
  if (status === 'down') return { status: 'down', reason: String(message), ...data };
  if (warnings.length > 0) return { status: 'degraded', reason: warnings.join('; '), ...data };
  return { status: 'up', ...data };
}
