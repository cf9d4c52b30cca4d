import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { ServiceProcess } from '../../scripts/stack/service-process';
import { stackTopics } from '../../scripts/stack/start-stack';
import { TradingStack } from '../support/trading-stack';

jest.setTimeout(180_000);

interface OutboxRecord {
  aggregate_id: string;
  aggregate_version: number;
  event_key: string;
  payload: string;
  headers: string;
}

/**
 * The consumers under the faults that redeliver, duplicate and reorder: one event at two
 * instances at once, versions arriving newest first, poison messages, and the group scaled
 * 1 → 3 → 1 under load (a consumer killed between its DB commit and its offset commit is
 * consumer-killed-before-offset-commit.int-spec.ts, on the mock). The order service's HTTP
 * process runs without a relay, so that a test can put copies of events on the topic before
 * the relay (a second order-service process, started and stopped here) publishes the originals.
 */
describe('chaos: consumers killed, duplicated, reordered and rescaled', () => {
  let chain: TradingStack;
  let relay: ServiceProcess | undefined;
  let kafka: Kafka;
  let producer: Producer;
  let paid = 0;

  const startRelay = async () => {
    relay ??= await chain.spawn('order-service', { OUTBOX_RELAY_ENABLED: 'true' });
  };
  const stopRelay = async () => {
    await relay?.stop();
    relay = undefined;
  };

  /** The order's outbox rows, oldest version first, as the relay would publish them. */
  const outboxOf = (orderId: string) =>
    chain.query<OutboxRecord>(
      'order_service',
      `SELECT aggregate_id, aggregate_version, event_key, payload, headers FROM t_outbox
       WHERE aggregate_type = 'Order' AND aggregate_id = ? ORDER BY aggregate_version`,
      [orderId],
    );

  /** Puts a copy of an outbox row on the order topic, as the relay would (key = aggregate id). */
  const copy = (row: OutboxRecord, partition?: number) => ({
    key: row.aggregate_id,
    value: row.payload,
    headers: JSON.parse(row.headers) as Record<string, string>,
    partition,
  });

  const sinceStart = async (service: 'fulfillment-service' | 'accounting-service', url?: string) =>
    (
      await requestJson<{ sinceStart: Record<string, number> }>(
        `${url ?? chain.url(service)}/inbox/stats`,
        { headers: chain.opsHeaders },
      )
    ).body.sinceStart;

  beforeAll(async () => {
    chain = await TradingStack.start({
      env: { 'order-service': { OUTBOX_RELAY_ENABLED: 'false' } },
    });
    kafka = new Kafka(
      testKafkaConfig({ brokers: chain.stack.kafkaBrokers, logLevel: logLevel.NOTHING }),
    );
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });

  // A test that fails while it has a service stopped must not fail the tests after it.
  afterEach(async () => {
    for (const service of Object.values(chain.stack.services)) {
      if (service.running) continue;
      service.start();
      await service.waitHealthy();
    }
  });

  afterAll(async () => {
    await producer?.disconnect();
    await stopRelay();
    await chain?.stop();
  });

  it('versions delivered newest first apply as 1, 2, 3; the originals arriving after are absorbed', async () => {
    const orders = await chain.openOrders(3);
    await chain.pay(orders);
    paid += orders.length;
    for (const order of orders) {
      const rows = await outboxOf(order.id);
      expect(rows.map((r) => r.aggregate_version)).toEqual([1, 2, 3]);
      await producer.send({
        topic: chain.targets().topics.order,
        messages: [...rows].reverse().map((row) => copy(row)),
      });
    }
    const topicsOf = ['fulfillment-service', 'accounting-service'] as const;
    await waitFor(
      async () => {
        for (const service of topicsOf) {
          const stats = await sinceStart(service);
          if (stats.parked < 2 * orders.length || stats.drained < 2 * orders.length) return false;
        }
        return true;
      },
      { description: 'versions 3 and 2 parked, then drained behind 1, by both consumers' },
    );
    await startRelay();
    await chain.settled(paid);
    for (const service of topicsOf)
      await waitFor(async () => (await sinceStart(service)).duplicates >= 3 * orders.length, {
        description: `${service} absorbed the originals as duplicates`,
      });
    const report = await chain.expectInvariantsHold();
    expect(report.observations.duplicateDeliveries).toBeGreaterThanOrEqual(3 * orders.length);
    await stopRelay();
  });

  it('one event at two consumer instances at once takes effect once', async () => {
    const joined = chain.logs.length;
    const second = await chain.spawn('fulfillment-service', { LOG_LEVEL: 'log' });
    // A join completes only once every member has rejoined: the group is split between the two.
    await waitFor(
      async () =>
        chain.logs
          .slice(joined)
          .some((line) => /joined its group; owns .*order\.events \[\d/.test(line)),
      {
        timeoutMs: 90_000,
        description: 'the second fulfillment instance owns partitions of the order topic',
      },
    );
    const [order] = await chain.openOrders(1);
    await chain.pay([order]);
    paid += 1;
    const rows = await outboxOf(order.id);
    const topic = chain.targets().topics.order;
    const partitions = stackTopics(chain.stack.topicPrefix)[topic];
    // The first versions in order on their own partition; OrderPaid on every partition at once,
    // so that both instances take it in concurrently.
    await producer.send({
      topic: chain.targets().topics.order,
      messages: [
        ...rows.slice(0, 2).map((row) => copy(row)),
        ...Array.from({ length: partitions }, (_, p) => copy(rows[2], p)),
      ],
    });
    await startRelay();
    await chain.settled(paid);
    const fulfillments = await chain.query<{ status: string; coupon_code: string }>(
      'fulfillment_service',
      'SELECT status, coupon_code FROM t_fulfillment WHERE order_id = ?',
      [order.id],
    );
    expect(fulfillments).toEqual([{ status: 'DONE', coupon_code: expect.any(String) }]);
    const duplicates =
      (await sinceStart('fulfillment-service')).duplicates +
      (await sinceStart('fulfillment-service', second.url)).duplicates;
    expect(duplicates).toBeGreaterThanOrEqual(partitions - 1);
    await second.stop();
    await chain.expectInvariantsHold();
  });

  it('poison messages go to both dead-letter topics while the others flow; a replay is dead-lettered again, never dropped', async () => {
    await startRelay();
    const topic = chain.targets().topics.order;
    const [order] = await chain.openOrders(1);
    const [valid] = await outboxOf(order.id);
    const envelope = JSON.parse(valid.payload) as Record<string, unknown>;
    const poison = [
      { key: 'p1', value: 'this is not JSON {' },
      { key: 'p2', value: JSON.stringify({ hello: 'an object, not an envelope' }) },
      {
        key: 'p3',
        value: JSON.stringify({
          ...envelope,
          eventType: 'OrderTeleported',
          eventKey: 'OrderTeleported:p3:1',
        }),
        headers: { 'event-type': 'OrderTeleported', 'event-key': 'OrderTeleported:p3:1' },
      },
    ];
    await producer.send({ topic, messages: poison });
    await chain.pay([order]);
    paid += 1;
    await chain.settled(paid);

    type Dlq = Array<{
      key: string | null;
      errorCode: string | null;
      offset: string;
      partition: number;
    }>;
    const deadLetters = async (service: 'fulfillment-service' | 'accounting-service') =>
      (
        await requestJson<Dlq>(`${chain.url(service)}/inbox/dead-letters`, {
          headers: chain.opsHeaders,
        })
      ).body;
    for (const service of ['fulfillment-service', 'accounting-service'] as const) {
      await waitFor(async () => (await deadLetters(service)).length === poison.length, {
        description: `${service} dead-lettered the three poison messages`,
      });
      expect((await deadLetters(service)).map((m) => m.key).sort()).toEqual(['p1', 'p2', 'p3']);
    }
    const report = await chain.invariants();
    expect(report.violations).toEqual([]);
    expect(report.observations.deadLetteredEvents).toHaveLength(2 * poison.length);

    // Replaying a message that is still poison sends it back to the dead-letter topic.
    const [notJson] = (await deadLetters('accounting-service')).filter((m) => m.key === 'p1');
    const replay = await requestJson<{ replayed: unknown[] }>(
      `${chain.url('accounting-service')}/inbox/dead-letters/replay`,
      {
        body: { messages: [{ partition: notJson.partition, offset: notJson.offset }] },
        headers: chain.opsHeaders,
      },
    );
    expect(replay.body.replayed).toHaveLength(1);
    await waitFor(
      async () => (await deadLetters('accounting-service')).length === poison.length + 1,
      {
        description: 'the replayed poison message dead-lettered again',
      },
    );
    expect((await chain.invariants()).violations).toEqual([]);
  });

  it('the group scaled 1 → 3 → 1 under load loses nothing and doubles nothing', async () => {
    await startRelay();
    const orders = await chain.openOrders(24);
    const load = chain.pay(orders, 3);
    const extras = [
      await chain.spawn('fulfillment-service'),
      await chain.spawn('fulfillment-service'),
      await chain.spawn('accounting-service'),
    ];
    await waitFor(
      async () =>
        (await chain.count('fulfillment_service', 'SELECT COUNT(*) AS n FROM t_fulfillment')) >
        paid + 4,
      { timeoutMs: 90_000, description: 'the load under way' },
    );
    await Promise.all(extras.map((p) => p.stop()));
    await load;
    paid += orders.length;
    await chain.settled(paid);
    await chain.expectInvariantsHold();
  });
});

/** True when the group's committed offsets reach the end of every partition of the topic. */
