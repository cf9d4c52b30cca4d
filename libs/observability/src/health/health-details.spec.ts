import { HealthIndicatorService } from '@nestjs/terminus';
import type { InboxStats, InboxStatsSource } from '@outbox-inbox/inbox';
import { InboxHealthIndicator } from '@outbox-inbox/inbox/health';
import type { OutboxRelayStats, OutboxStats, OutboxStatsSource } from '@outbox-inbox/outbox';
import { OutboxHealthIndicator } from '@outbox-inbox/outbox/health';
import { DataSource } from 'typeorm';
import { readHealthDetails } from './health-details';
import { OwnSchema } from './own-schema';
import { DEFAULT_READINESS } from './readiness-thresholds';

const database = { query: async () => [{ 1: 1 }] } as unknown as DataSource;
const thresholds = { ...DEFAULT_READINESS, outboxMaxAgeMs: 1_000, checkTimeoutMs: 200 };

const outboxStats = (over: Partial<OutboxStats> = {}): OutboxStatsSource => ({
  stats: async () => ({
    backlog: { NEW: 0, SENDING: 0, DEAD: 0 },
    oldestUnsentAgeMs: 0,
    retryingRows: 0,
    dead: 0,
    aggregatesBlockedByDead: 0,
    deadPolicy: 'block',
    ...over,
  }),
});

const relayGoingRound = (lastTickAt: number): OutboxRelayStats => ({
  counts: () => ({
    published: 0,
    publishFailures: 0,
    dead: 0,
    leaseLost: 0,
    claimsHandedBack: 0,
    claimsWithRows: 0,
    claimMsWithRows: 0,
    topicHeld: 0,
  }),
  heartbeat: () => ({ running: true, lastTickAt, idleUntil: 0 }),
  faults: () => [],
});

const inboxStats = (over: Partial<InboxStats> = {}): InboxStatsSource => ({
  stats: async () => ({
    consumer: 'fulfillment',
    inbox: { applied: 0, ignored: 0, stale: 0, parked: 0 },
    parkedNow: 0,
    openGaps: [],
    deadLetterTopicMessages: 0,
    blocked: { seconds: 0, partitions: [] },
    group: { joined: true, rejoiningSeconds: 0 },
    consumerFault: null,
    sinceStart: {} as InboxStats['sinceStart'],
    ...over,
  }),
  openGaps: async () => [],
  groupMembership: () => ({ consumer: 'fulfillment', joined: true }),
});

/** The packages' indicators over these ports, as ObservabilityModule provides them. */
const outboxHealth = (stats: OutboxStatsSource, relay: OutboxRelayStats | null = null) =>
  new OutboxHealthIndicator(new HealthIndicatorService(), stats, relay);
const inboxHealth = (stats: InboxStatsSource) =>
  new InboxHealthIndicator(new HealthIndicatorService(), stats);

describe("readHealthDetails, read through the packages' indicators", () => {
  it("names this service's missing tables and grants in a schema component that is down", async () => {
    const schema = new OwnSchema({
      outbox: { faults: async () => [{ kind: 'table', subject: 't_outbox', code: '42P01' }] },
      inbox: {
        faults: async () => [
          { kind: 'grant', subject: 'INSERT on t_inbox', code: 'ER_TABLEACCESS_DENIED_ERROR' },
        ],
      },
    });
    const details = await readHealthDetails({ dataSource: database, thresholds, schema });
    expect(details.status).toBe('degraded');
    expect(details.components.schema).toEqual({
      status: 'down',
      reason:
        'outbox: table t_outbox is missing (42P01); inbox: INSERT on t_inbox is not granted (ER_TABLEACCESS_DENIED_ERROR)',
      faults: [
        { component: 'outbox', kind: 'table', subject: 't_outbox', code: '42P01' },
        {
          component: 'inbox',
          kind: 'grant',
          subject: 'INSERT on t_inbox',
          code: 'ER_TABLEACCESS_DENIED_ERROR',
        },
      ],
    });
  });

  it('is ok when the database, the relay, the outbox and the inbox are all well', async () => {
    const details = await readHealthDetails({
      dataSource: database,
      thresholds,
      outbox: outboxHealth(outboxStats(), relayGoingRound(Date.now())),
      inbox: inboxHealth(inboxStats()),
    });
    expect(details.status).toBe('ok');
    expect(Object.keys(details.components).sort()).toEqual([
      'database',
      'inbox',
      'outbox',
      'outboxRelay',
    ]);
  });

  it('names a topic the relay waits for, with its remedy', async () => {
    const fault = {
      kind: 'topic' as const,
      subject: 'shop.parcel.events',
      code: 'UNKNOWN_TOPIC_OR_PARTITION',
      since: '2026-12-07T04:00:00.000Z',
      rounds: 3,
      remedy: 'create topic shop.parcel.events (the relay never creates topics)',
    };
    const details = await readHealthDetails({
      dataSource: database,
      thresholds,
      outbox: outboxHealth(outboxStats(), {
        ...relayGoingRound(Date.now()),
        faults: () => [fault],
      }),
    });
    expect(details.status).toBe('degraded');
    expect(details.components.outboxRelay).toMatchObject({
      status: 'degraded',
      faults: [fault],
    });
    expect(details.components.outboxRelay.reason).toContain('shop.parcel.events');
    expect(details.components.outboxRelay.reason).toContain('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('names what needs attention: DEAD and old rows, a stuck relay, a blocked consumer', async () => {
    const details = await readHealthDetails({
      dataSource: database,
      thresholds,
      outbox: outboxHealth(
        outboxStats({ dead: 2, oldestUnsentAgeMs: 5_000 }),
        relayGoingRound(Date.now() - thresholds.relayStallMs - 5_000),
      ),
      inbox: inboxHealth(inboxStats({ blocked: { seconds: 30, partitions: [] } })),
    });
    expect(details.status).toBe('degraded');
    expect(details.components.outboxRelay).toMatchObject({ status: 'down' });
    expect(details.components.outbox).toMatchObject({
      status: 'degraded',
      reason: expect.stringMatching(/2 DEAD row\(s\).*5000 ms old/),
    });
    expect(details.components.inbox).toMatchObject({
      status: 'degraded',
      reason: 'blocked for 30 s by an unavailable dependency',
    });
  });

  it('reports a source that fails as down, and the others as they are', async () => {
    const details = await readHealthDetails({
      dataSource: database,
      thresholds,
      outbox: outboxHealth({ stats: () => Promise.reject(new Error('lock wait timeout')) }),
    });
    expect(details.components).toEqual({
      database: { status: 'up' },
      outboxRelay: { status: 'up', relay: 'off' },
      outbox: { status: 'down', reason: 'lock wait timeout' },
    });
  });
});
