import { randomBytes } from 'node:crypto';
import { checkInvariants, invariantTargets, InvariantTargets } from '@app/trading-checker';
import { EventHeader } from '@outbox-inbox/messaging';
import { startTestEnvironment, TestEnvironment, waitFor } from '@outbox-inbox/test-kit';
import { seedDeployment } from '@app/trading-test-kit';
import { createConnection } from 'mysql2/promise';
import { AccountingMigrations } from '../../apps/accounting-service/src/migrations';
import { CouponMigrations } from '../../apps/coupon-provider/src/migrations';
import { FulfillmentMigrations } from '../../apps/fulfillment-service/src/migrations';
import { OrderMigrations } from '../../apps/order-service/src/migrations';
import { Partitioners } from 'kafkajs';

/**
 * The invariant checker on a deployment in real databases and topics where a consumer's gate
 * passed a version with no event taken in: a gap an operator skipped on purpose (a
 * t_inbox_skip row, as `ops gap:skip` writes it) is accepted by every rule; the same gap
 * without the skip is still reported. The seeded deployment is at rest (`--quiescent` clean:
 * each group committed past every message under its real group id). And a replay waiting on a consumer's retry topic is in
 * flight until its group has consumed it.
 */
describe('The invariant checker and a version skipped on purpose', () => {
  let env: TestEnvironment;
  let targets: InvariantTargets;

  beforeAll(async () => {
    env = await startTestEnvironment();
    const prefix = `chk_skip_${randomBytes(3).toString('hex')}_`;
    targets = invariantTargets({
      mysqlUrl: env.infra.mysqlUrl,
      kafkaBrokers: env.infra.kafkaBrokers,
      databasePrefix: prefix,
      topicPrefix: prefix.replace(/_/g, '.'),
    });
    await env.infra.kafka.createTopics({
      [targets.topics.order]: 2,
      [targets.topics.fulfillment]: 2,
    });
    const migrations = {
      order: OrderMigrations,
      fulfillment: FulfillmentMigrations,
      accounting: AccountingMigrations,
      couponProvider: CouponMigrations,
    };
    // Three paid orders, fulfilled and booked; every row and message retained.
    await seedDeployment(targets, env.kafka, migrations, 3, 3);
  });

  afterAll(async () => {
    if (targets) {
      const root = await createConnection({ uri: env.infra.mysqlUrl });
      for (const database of Object.values(targets.databases))
        await root.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await root.end();
    }
    await env?.stop();
  });

  async function fulfillmentDb<T>(sql: string, params: unknown[] = []): Promise<T> {
    const db = await createConnection({
      uri: `${targets.mysqlUrl}/${targets.databases.fulfillment}`,
    });
    try {
      return (await db.query(sql, params))[0] as T;
    } finally {
      await db.end();
    }
  }

  it('finds the seeded deployment at rest: --quiescent reports nothing in flight', async () => {
    // Each consumer's group (its real, prefixed group id) committed at the end of its topics.
    const admin = env.kafka.admin();
    await admin.connect();
    try {
      for (const c of targets.consumers)
        for (const topic of c.topics) {
          const ends = await admin.fetchTopicOffsets(topic);
          const [committed] = await admin.fetchOffsets({ groupId: c.groupId, topics: [topic] });
          expect([c.groupId, committed.partitions.map((p) => p.offset).sort()]).toEqual([
            c.groupId,
            ends.map((e) => e.high).sort(),
          ]);
        }
    } finally {
      await admin.disconnect();
    }
    const report = await checkInvariants(targets, { quiescent: true });
    expect(report.violations).toEqual([]);
    expect(report.observations.inFlightEvents).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('reports the gap until it is skipped, and nothing once it is', async () => {
    expect((await checkInvariants(targets)).violations).toEqual([]);

    // Fulfillment's gate passed order 2's version 2 with no inbox row for it.
    await fulfillmentDb(
      `DELETE FROM t_inbox WHERE consumer = 'fulfillment-service' AND event_key = 'OrderPaymentStarted:2:2'`,
    );
    const unskipped = await checkInvariants(targets);
    expect(unskipped.violations.map((v) => [v.rule, v.ids])).toEqual(
      expect.arrayContaining([
        [
          'versions-applied-in-order',
          ['fulfillment-service Order:2: version 2 missing (last applied 3)'],
        ],
      ]),
    );

    await fulfillmentDb(
      `INSERT INTO t_inbox_skip (consumer, aggregate_type, aggregate_id, aggregate_version,
         reason, skipped_by, skipped_at, drained)
       VALUES ('fulfillment-service', 'Order', '2', 2, 'lost upstream, ticket OPS-7', 'ops', NOW(3), 0)`,
    );
    const skipped = await checkInvariants(targets);
    expect(skipped.violations).toEqual([]);
    expect(skipped.ok).toBe(true);
  });

  it("counts a replay on a consumer's retry topic as in flight until its group has consumed it", async () => {
    const fulfillment = targets.consumers.find((c) => c.name === 'fulfillment-service')!;
    const retryTopic = fulfillment.retryTopic!;
    await env.infra.kafka.createTopics({ [retryTopic]: 1 });
    const replayed = 'OrderCancelled:3:4'; // a replay of an event fulfillment never took in
    const producer = env.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic: retryTopic,
      messages: [
        {
          key: '3',
          value: '{}',
          headers: {
            [EventHeader.eventKey]: replayed,
            [EventHeader.eventType]: 'OrderCancelled',
            [EventHeader.aggregateType]: 'Order',
            [EventHeader.aggregateId]: '3',
            [EventHeader.aggregateVersion]: '4',
          },
        },
      ],
    });
    await producer.disconnect();
    const waiting = await checkInvariants(targets);
    expect(waiting.observations.inFlightEvents).toContain(
      `fulfillment-service ${replayed} (replay)`,
    );

    // The group takes the replay in and commits past it, as the service's consumer does.
    const consumer = env.kafka.consumer({ groupId: fulfillment.groupId, maxWaitTimeInMs: 100 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: retryTopic, fromBeginning: true });
      await consumer.run({ autoCommitInterval: 100, eachMessage: async () => undefined });
      const admin = env.kafka.admin();
      await admin.connect();
      try {
        await waitFor(
          async () => {
            const [offsets] = await admin.fetchOffsets({
              groupId: fulfillment.groupId,
              topics: [retryTopic],
            });
            return offsets.partitions[0].offset === '1';
          },
          { description: 'the group committed past the replay' },
        );
      } finally {
        await admin.disconnect();
      }
    } finally {
      await consumer.disconnect();
    }
    const consumed = await checkInvariants(targets);
    expect(consumed.observations.inFlightEvents).not.toContain(
      `fulfillment-service ${replayed} (replay)`,
    );
    expect(consumed.violations).toEqual([]);
  });
});
