import { HealthIndicatorService } from '@nestjs/terminus';
import type { OutboxRelayStats, OutboxStats, OutboxStatsSource } from '../outbox-stats.port';
import type { RelayFault } from '../relay/relay-faults';
import { OutboxHealthIndicator } from './outbox-health.indicator';

const STATS: OutboxStats = {
  backlog: { NEW: 3, SENDING: 1, DEAD: 2 },
  oldestUnsentAgeMs: 400_000,
  retryingRows: 1,
  dead: 2,
  aggregatesBlockedByDead: 1,
  deadPolicy: 'block',
};

const source = (stats: () => Promise<OutboxStats>): OutboxStatsSource => ({ stats });

function relay(lastTickAt: number, faults: RelayFault[] = [], running = true): OutboxRelayStats {
  return {
    counts: () => ({
      published: 0,
      publishFailures: 0,
      topicHeld: 0,
      dead: 0,
      leaseLost: 0,
      claimsHandedBack: 0,
      claimsWithRows: 0,
      claimMsWithRows: 0,
    }),
    heartbeat: () => ({ running, lastTickAt, idleUntil: 0 }),
    faults: () => faults,
  };
}

const fault = (kind: RelayFault['kind'], subject: string, remedy: string): RelayFault => ({
  kind,
  subject,
  code: kind === 'schema' ? 'ER_NO_SUCH_TABLE' : 'UNKNOWN_TOPIC_OR_PARTITION',
  since: '2026-12-07T03:00:00.000Z',
  rounds: 4,
  remedy,
});

const indicator = (stats: OutboxStatsSource, relayStats: OutboxRelayStats | null) =>
  new OutboxHealthIndicator(new HealthIndicatorService(), stats, relayStats);

describe('OutboxHealthIndicator.checkRelay (readiness)', () => {
  const healthy = source(async () => STATS);

  it('is up while the relay loop goes round', () => {
    const now = Date.now();
    expect(indicator(healthy, relay(now)).checkRelay()).toEqual({
      outboxRelay: {
        status: 'up',
        lastRoundAt: new Date(now).toISOString(),
        faults: [],
        warnings: [],
      },
    });
  });

  it('is up in a process whose relay is off (a writer only)', () => {
    expect(indicator(healthy, null).checkRelay('relay')).toEqual({
      relay: { status: 'up', relay: 'off' },
    });
  });

  it('is down when the loop has stalled past stallMs, or stopped', () => {
    const stalled = indicator(healthy, relay(Date.now() - 5_000)).checkRelay('outboxRelay', {
      stallMs: 1_000,
    });
    expect(stalled.outboxRelay).toMatchObject({
      status: 'down',
      message: expect.stringMatching(/^the relay loop has not gone round for \d+ ms$/),
    });
    const stopped = indicator(healthy, relay(Date.now(), [], false)).checkRelay();
    expect(stopped.outboxRelay).toMatchObject({
      status: 'down',
      message: 'the relay is not running',
    });
  });

  it("is down when this instance's own table is missing, naming it and what to run", () => {
    const missing = fault('schema', 't_outbox', 'run OutboxMigrations');
    const result = indicator(healthy, relay(Date.now(), [missing])).checkRelay();
    expect(result.outboxRelay).toMatchObject({
      status: 'down',
      message: expect.stringContaining('t_outbox (ER_NO_SUCH_TABLE); run OutboxMigrations'),
      faults: [missing],
    });
  });

  it('stays up for a missing topic, which every instance sees alike, and names it', () => {
    const topic = fault('topic', 'shop.parcel.events', 'create the topic');
    const result = indicator(healthy, relay(Date.now(), [topic])).checkRelay();
    expect(result.outboxRelay).toMatchObject({
      status: 'up',
      faults: [topic],
      warnings: [expect.stringContaining('shop.parcel.events (UNKNOWN_TOPIC_OR_PARTITION)')],
    });
  });
});

describe('OutboxHealthIndicator.checkBacklog (details)', () => {
  it('answers the backlog and warns of DEAD rows and an old unsent row, staying up', async () => {
    const result = await indicator(
      source(async () => STATS),
      null,
    ).checkBacklog('outbox', { maxUnsentAgeMs: 300_000 });
    expect(result).toEqual({
      outbox: {
        status: 'up',
        backlog: { NEW: 3, SENDING: 1, DEAD: 2 },
        oldestUnsentAgeMs: 400_000,
        dead: 2,
        retryingRows: 1,
        aggregatesBlockedByDead: 1,
        warnings: [
          '2 DEAD row(s) wait for an operator',
          'the oldest unsent row is 400000 ms old (limit 300000 ms)',
        ],
      },
    });
  });

  it('has no warning for a young backlog without DEAD rows', async () => {
    const calm = { ...STATS, dead: 0, oldestUnsentAgeMs: 1_000 };
    const result = await indicator(
      source(async () => calm),
      null,
    ).checkBacklog();
    expect(result.outbox).toMatchObject({ status: 'up', warnings: [] });
  });

  it('is down, saying why, when the stats cannot be read or do not answer in time', async () => {
    const failing = indicator(
      source(() => Promise.reject(new Error('lock wait timeout'))),
      null,
    );
    expect(await failing.checkBacklog()).toEqual({
      outbox: { status: 'down', message: 'lock wait timeout' },
    });
    const hanging = indicator(
      source(() => new Promise<OutboxStats>(() => undefined)),
      null,
    );
    expect(await hanging.checkBacklog('outbox', { timeoutMs: 20 })).toEqual({
      outbox: { status: 'down', message: 'no answer within 20 ms' },
    });
  });
});
