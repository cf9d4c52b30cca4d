import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { withTimeout } from '@outbox-inbox/database';
import type { OutboxReadPorts, OutboxRelayStats, OutboxStatsSource } from '../outbox-stats.port';
import type { RelayFault } from '../relay/relay-faults';
import { relayStall } from './relay-stall';

/** `checkRelay`: how long the relay loop may stay silent before this instance is not ready. */
export interface RelayCheckOptions {
  /** Neither a round started nor a wait under way for this long: down. Default 60 s. */
  stallMs?: number;
}

/** `checkBacklog`: when the backlog deserves a warning, and how long its query may take. */
export interface OutboxBacklogCheckOptions {
  /** The oldest unsent row older than this is a warning (never down). Default 5 min. */
  maxUnsentAgeMs?: number;
  /** The stats query gives up after this long and the check is down. Default 2 s. */
  timeoutMs?: number;
}

/**
 * Terminus health indicators of the outbox, read through its read-only ports. Two checks,
 * because they answer two questions:
 * - `checkRelay` (readiness): can this instance do its own work? Down when its relay loop has
 *   stalled or stopped, or when its own schema is broken (t_outbox, a column or a grant
 *   missing: a `schema` fault). A topic that does not exist is the platform's, seen alike by
 *   every instance: a warning, up.
 * - `checkBacklog` (details): what waits, and for how long: NEW, SENDING and DEAD rows, the
 *   oldest unsent row's age, aggregates held behind a DEAD row. Shared conditions: warnings,
 *   never down (taking every instance out would stop the writes that fill the outbox). Down
 *   only when the stats cannot be read.
 * Warnings are listed in `warnings`: a check is never `down` for them.
 */
@Injectable()
export class OutboxHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject('OutboxStatsSource' satisfies keyof OutboxReadPorts)
    private readonly stats: OutboxStatsSource,
    @Optional()
    @Inject('OutboxRelayStats' satisfies keyof OutboxReadPorts)
    private readonly relay?: OutboxRelayStats | null,
  ) {}

  /** Readiness of this instance's relay: up where the relay is off (a writer-only process). */
  checkRelay<const Key extends string = 'outboxRelay'>(
    key: Key = 'outboxRelay' as Key,
    options: RelayCheckOptions = {},
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    if (!this.relay) return session.up({ relay: 'off' });
    const faults = this.relay.faults();
    const heartbeat = this.relay.heartbeat();
    const data = {
      // Null until the loop's first round.
      lastRoundAt: heartbeat.lastTickAt > 0 ? new Date(heartbeat.lastTickAt).toISOString() : null,
      faults,
      warnings: faults.filter((f) => f.kind !== 'schema').map(describeFault),
    };
    const schema = faults.filter((f) => f.kind === 'schema');
    if (schema.length > 0)
      return session.down({ message: schema.map(describeFault).join('; '), ...data });
    const stalled = relayStall(heartbeat, options.stallMs ?? 60_000, Date.now());
    if (stalled) return session.down({ message: stalled, ...data });
    return session.up(data);
  }

  /** The outbox table at a glance, with warnings for DEAD rows and an old backlog. */
  async checkBacklog<const Key extends string = 'outbox'>(
    key: Key = 'outbox' as Key,
    options: OutboxBacklogCheckOptions = {},
  ): Promise<HealthIndicatorResult<Key>> {
    const { maxUnsentAgeMs = 300_000, timeoutMs = 2_000 } = options;
    const session = this.indicators.check(key);
    try {
      const stats = await withTimeout(this.stats.stats(), timeoutMs);
      const { backlog, oldestUnsentAgeMs, dead, retryingRows, aggregatesBlockedByDead } = stats;
      const warnings = [
        ...(dead > 0 ? [`${dead} DEAD row(s) wait for an operator`] : []),
        ...(oldestUnsentAgeMs > maxUnsentAgeMs
          ? [`the oldest unsent row is ${oldestUnsentAgeMs} ms old (limit ${maxUnsentAgeMs} ms)`]
          : []),
      ];
      return session.up({
        backlog,
        oldestUnsentAgeMs,
        dead,
        retryingRows,
        aggregatesBlockedByDead,
        warnings,
      });
    } catch (error) {
      return session.down({ message: (error as Error)?.message ?? String(error) });
    }
  }
}

/** One line an operator can act on: what is missing, and what to run or change. */
function describeFault(fault: RelayFault): string {
  return `${fault.kind} fault since ${fault.since}: ${fault.subject} (${fault.code}); ${fault.remedy}`;
}
