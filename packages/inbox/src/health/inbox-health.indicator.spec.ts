import { HealthIndicatorService } from '@nestjs/terminus';
import type { InboxStatsSource } from '../inbox-stats.port';
import type { InboxStats } from '../operations/inbox-stats';
import { describeConsumerFault } from '../metrics/consumer-fault';
import { InboxHealthIndicator } from './inbox-health.indicator';

const STATS: InboxStats = {
  consumer: 'shipping',
  inbox: { applied: 5, ignored: 0, stale: 0, parked: 1 },
  parkedNow: 1,
  openGaps: [
    {
      aggregateType: 'Parcel',
      aggregateId: 'p-1',
      lastAppliedVersion: 1,
      parkedVersions: [3],
      oldestParkedAt: '2026-12-07T03:00:00.000Z',
    },
  ],
  deadLetterTopicMessages: 2,
  blocked: { seconds: 30.4, partitions: [] },
  group: { joined: true, rejoiningSeconds: 0 },
  consumerFault: null,
  sinceStart: {} as InboxStats['sinceStart'],
};

function source(stats: () => Promise<InboxStats>, joined = true): InboxStatsSource {
  return {
    stats,
    openGaps: async () => [],
    groupMembership: () => ({ consumer: 'shipping', joined }),
  };
}

const indicator = (stats: InboxStatsSource) =>
  new InboxHealthIndicator(new HealthIndicatorService(), stats);

describe('InboxHealthIndicator.checkConsumer (readiness)', () => {
  it('is down until the consumer first joins its group, then up', () => {
    expect(indicator(source(async () => STATS, false)).checkConsumer()).toEqual({
      inboxConsumer: {
        status: 'down',
        message: 'consumer shipping has not joined its group yet',
        consumer: 'shipping',
      },
    });
    expect(indicator(source(async () => STATS, true)).checkConsumer('consumer')).toEqual({
      consumer: { status: 'up', consumer: 'shipping' },
    });
  });
});

describe('InboxHealthIndicator.checkBacklog (details)', () => {
  it('stays up and warns of a blocked partition, an open gap and dead letters', async () => {
    const result = await indicator(source(async () => STATS)).checkBacklog();
    expect(result).toEqual({
      inbox: {
        status: 'up',
        consumer: 'shipping',
        blocked: STATS.blocked,
        group: STATS.group,
        openGaps: 1,
        parkedNow: 1,
        deadLetterTopicMessages: 2,
        warnings: [
          'blocked for 30 s by an unavailable dependency',
          '1 open gap(s)',
          '2 message(s) in the dead-letter topic',
        ],
      },
    });
  });

  it('warns while the consumer rejoins its group after a rebalance', async () => {
    const rejoining = { ...STATS, group: { joined: true, rejoiningSeconds: 12 } };
    const result = await indicator(source(async () => rejoining)).checkBacklog();
    expect(result.inbox.warnings).toContain('rejoining its group for 12 s (a rebalance)');
  });

  it('names why the consumer does not read, the topic the ACLs deny and what to grant, first', async () => {
    const denied = {
      ...STATS,
      consumerFault: {
        code: 'TOPIC_AUTHORIZATION_FAILED',
        subject: 'shop.parcel.events',
        remedy: 'grant this principal READ on shop.parcel.events',
        since: '2026-12-07T03:00:00.000Z',
      },
    };
    const result = await indicator(source(async () => denied)).checkBacklog();
    expect(result.inbox.status).toBe('up');
    expect(result.inbox.consumerFault).toEqual(denied.consumerFault);
    expect(result.inbox.warnings[0]).toBe(
      'the consumer is not reading since 2026-12-07T03:00:00.000Z: TOPIC_AUTHORIZATION_FAILED on shop.parcel.events; grant this principal READ on shop.parcel.events',
    );
  });

  it('names the refusal when the stats cannot be read because the cluster refuses this client', async () => {
    const fault = {
      code: 'TLS_CERTIFICATE_EXPIRED',
      subject: 'kafka',
      remedy: "renew the brokers' certificate",
      since: '2026-12-07T03:00:00.000Z',
    };
    const refused: InboxStatsSource = {
      ...source(() => new Promise<InboxStats>(() => undefined)),
      groupMembership: () => ({ consumer: 'shipping', joined: true, fault }),
    };
    expect(await indicator(refused).checkBacklog('inbox', { timeoutMs: 20 })).toEqual({
      inbox: {
        status: 'down',
        message: `${describeConsumerFault(fault)} (no answer within 20 ms)`,
        consumerFault: fault,
      },
    });
  });

  it('is down, saying why, when the stats cannot be read or do not answer in time', async () => {
    const failing = indicator(source(() => Promise.reject(new Error('ECONNREFUSED'))));
    expect(await failing.checkBacklog()).toEqual({
      inbox: { status: 'down', message: 'ECONNREFUSED' },
    });
    const hanging = indicator(source(() => new Promise<InboxStats>(() => undefined)));
    expect(await hanging.checkBacklog('inbox', { timeoutMs: 20 })).toEqual({
      inbox: { status: 'down', message: 'no answer within 20 ms' },
    });
  });
});
