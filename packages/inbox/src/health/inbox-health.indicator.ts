import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { withTimeout } from '@outbox-inbox/database';
import type { InboxReadPorts, InboxStatsSource } from '../inbox-stats.port';
import { describeConsumerFault } from '../metrics/consumer-fault';

/** `checkBacklog`: how long the stats may take. */
export interface InboxBacklogCheckOptions {
  /** The stats (database and dead-letter topic) give up after this long: down. Default 2 s. */
  timeoutMs?: number;
}

/**
 * Terminus health indicators of the inbox, read through its read-only ports. Two checks,
 * because they answer two questions:
 * - `checkConsumer` (readiness): does this instance take its share of the work? Down until
 *   its consumer has first joined its group (the join can take a session timeout; HTTP
 *   answers meanwhile). Later rebalances and broker outages do not take it down: every
 *   instance sees them alike.
 * - `checkBacklog` (details): what waits: partitions blocked by an unavailable dependency,
 *   open gaps, parked events, messages in the dead-letter topic, a rejoin under way, a
 *   consumer the cluster refuses (its code, the topic or group, the remedy). Shared
 *   conditions: warnings, never down. Down only when the stats cannot be read.
 * Warnings are listed in `warnings`: a check is never `down` for them.
 */
@Injectable()
export class InboxHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject('InboxStatsSource' satisfies keyof InboxReadPorts)
    private readonly stats: InboxStatsSource,
  ) {}

  /** Readiness of this instance's consumer: up once it has joined its group since start. */
  checkConsumer<const Key extends string = 'inboxConsumer'>(
    key: Key = 'inboxConsumer' as Key,
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const { consumer, joined } = this.stats.groupMembership();
    return joined
      ? session.up({ consumer })
      : session.down({ message: `consumer ${consumer} has not joined its group yet`, consumer });
  }

  /** The inbox at a glance, with warnings for what needs an operator or is held back. */
  async checkBacklog<const Key extends string = 'inbox'>(
    key: Key = 'inbox' as Key,
    options: InboxBacklogCheckOptions = {},
  ): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    try {
      const stats = await withTimeout(this.stats.stats(), options.timeoutMs ?? 2_000);
      const { blocked, group, openGaps, parkedNow, deadLetterTopicMessages, consumerFault } = stats;
      const warnings = [
        // First: it says why the others (not joined, no progress) are so.
        ...(consumerFault ? [describeConsumerFault(consumerFault)] : []),
        ...(!group.joined ? ['the consumer has not joined its group yet'] : []),
        ...(group.rejoiningSeconds > 0
          ? [`rejoining its group for ${Math.round(group.rejoiningSeconds)} s (a rebalance)`]
          : []),
        ...(blocked.seconds > 0
          ? [`blocked for ${Math.round(blocked.seconds)} s by an unavailable dependency`]
          : []),
        ...(openGaps.length > 0 ? [`${openGaps.length} open gap(s)`] : []),
        ...(deadLetterTopicMessages
          ? [`${deadLetterTopicMessages} message(s) in the dead-letter topic`]
          : []),
      ];
      return session.up({
        consumer: stats.consumer,
        blocked,
        group,
        openGaps: openGaps.length,
        parkedNow,
        deadLetterTopicMessages,
        ...(consumerFault && { consumerFault }),
        warnings,
      });
    } catch (error) {
      // The stats ask the broker too (the dead-letter topic's size): when the cluster refuses
      // this client that times out, and the refusal is the reason to give.
      const message = (error as Error)?.message ?? String(error);
      const { fault } = this.stats.groupMembership();
      return fault
        ? session.down({
            message: `${describeConsumerFault(fault)} (${message})`,
            consumerFault: fault,
          })
        : session.down({ message });
    }
  }
}
