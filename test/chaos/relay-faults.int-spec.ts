import { Kafka, logLevel } from 'kafkajs';
import { createConnection } from 'mysql2/promise';
import { readWholeTopic } from '@outbox-inbox/messaging';
import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { MYSQL_URL, TradingStack } from '../support/trading-stack';

/**
 * The relay under the faults that duplicate or delay publishing: a relay process killed hard
 * after its claim and after its send, every broker down past the request timeout, and produce
 * requests that time out although the broker wrote them. Each ends with the invariant checker:
 * duplicates in the topics are expected and counted, duplicate effects are violations.
 */
jest.setTimeout(180_000);

describe('chaos: the relay killed, the brokers down, produce timeouts', () => {
  let chain: TradingStack;
  let paid = 0;

  const outboxIds = async (status: string) =>
    (
      await chain.query<{ id: string }>(
        'order_service',
        'SELECT id FROM t_outbox WHERE status = ?',
        [status],
      )
    ).map((r) => String(r.id));

  const restartOrderService = async () => {
    chain.stack.services['order-service'].start();
    await chain.stack.services['order-service'].waitHealthy();
  };

  beforeAll(async () => {
    // The brokers go down and slow down: a Kafka of this file's own (the mock, or Apache Kafka
    // behind TCP proxies that every service's connection runs through).
    chain = await TradingStack.start({
      kafkaFaults: true,
      env: {
        // A short lease so that a new relay takes over a dead one's rows within seconds; the
        // lease must outlast a whole send: 1 000 ms x (1 retry + 1).
        'order-service': {
          OUTBOX_LEASE_MS: '3000',
          OUTBOX_REQUEST_TIMEOUT_MS: '1000',
          OUTBOX_PRODUCER_RETRIES: '1',
          OUTBOX_POLL_INTERVAL_MS: '200',
        },
      },
    });
    const orders = await chain.openOrders(4);
    await chain.pay(orders);
    paid += orders.length;
    await chain.settled(paid);
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('a relay killed after its claim, before its send: a new relay publishes the rows once the lease expires', async () => {
    const faults = chain.stack.kafka.faults!;
    // With every broker down the claimed rows cannot leave the process: kill it mid-send.
    await faults.allDown();
    const orders = await chain.openOrders(4);
    let claimed: string[] = [];
    await waitFor(async () => (claimed = await outboxIds('SENDING')).length > 0, {
      description: 'rows claimed (SENDING) by the relay',
    });
    await chain.stack.services['order-service'].stop('SIGKILL');
    await faults.allUp();
    await restartOrderService();

    await chain.pay(orders);
    paid += orders.length;
    await chain.settled(paid);
    const sent = new Set(await outboxIds('SENT'));
    expect(claimed.filter((id) => !sent.has(id))).toEqual([]);
    await chain.expectInvariantsHold();
  });

  it('a relay killed after its send, before marking SENT: the rows are sent again, the effects stay single', async () => {
    const faults = chain.stack.kafka.faults!;
    // Slow produce replies (below the request timeout) keep rows SENDING long enough for a test
    // transaction to lock them: the relay's send completes, its mark waits on our locks.
    await faults.setLatency(400);
    const locker = await createConnection({ uri: `${MYSQL_URL}/${chain.prefix}order_service` });
    let stranded: Array<{ id: string; event_key: string }> = [];
    try {
      await locker.query('SET SESSION innodb_lock_wait_timeout = 60');
      const orders = await chain.openOrders(6, 3);
      await waitFor(
        async () => {
          await locker.query('START TRANSACTION');
          const [rows] = await locker.query(
            "SELECT id, event_key FROM t_outbox WHERE status = 'SENDING' FOR UPDATE",
          );
          stranded = rows as Array<{ id: string; event_key: string }>;
          if (stranded.length === 0) await locker.query('ROLLBACK');
          return stranded.length > 0;
        },
        { intervalMs: 10, description: 'claimed rows locked before the relay marks them' },
      );
      const keys = new Set(stranded.map((r) => r.event_key));
      // The send went through: the messages are in the topic while their rows stay SENDING.
      await waitFor(() => topicHolds(chain, keys), { description: 'the stranded rows published' });
      await chain.stack.services['order-service'].stop('SIGKILL');
      // The dead process's UPDATE still waits for our locks inside the server, which notices
      // the closed socket only when it next writes to it: end it as the crash would have.
      const [waiting] = await locker.query(
        `SELECT id FROM information_schema.PROCESSLIST
         WHERE db = ? AND info LIKE 'UPDATE t_outbox SET status = ''SENT''%'`,
        [`${chain.prefix}order_service`],
      );
      for (const { id } of waiting as Array<{ id: number }>) await locker.query(`KILL ${id}`);
      expect((waiting as unknown[]).length).toBeGreaterThan(0);
      await locker.query('ROLLBACK');
      await faults.setLatency(0);
      await restartOrderService();
      await chain.pay(orders);
      paid += orders.length;
    } finally {
      await locker.end();
    }

    await chain.settled(paid);
    const report = await chain.expectInvariantsHold();
    const doubled = report.observations.duplicatedEventKeys.map((k) => k.split(' ')[0]);
    expect(doubled).toEqual(expect.arrayContaining(stranded.map((r) => r.event_key)));
    expect(report.observations.duplicateDeliveries).toBeGreaterThanOrEqual(stranded.length);
  });

  it('all brokers down past the request timeout: the backlog grows, nothing is lost, it drains when they return', async () => {
    const faults = chain.stack.kafka.faults!;
    await faults.allDown();
    const orders = await chain.openOrders(5);
    await chain.pay(orders);
    paid += orders.length;
    // The relay tried, failed and backed off; the rows wait, none DEAD.
    await waitFor(
      async () =>
        (await chain.count(
          'order_service',
          "SELECT COUNT(*) AS n FROM t_outbox WHERE status = 'NEW' AND retry_count > 0",
        )) > 0,
      { description: 'failed publish attempts recorded' },
    );
    const backlog = await chain.count(
      'order_service',
      "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')",
    );
    expect(backlog).toBeGreaterThanOrEqual(orders.length);
    expect(await outboxIds('DEAD')).toEqual([]);

    await faults.allUp();
    await chain.settled(paid);
    await chain.expectInvariantsHold();
  });

  it('produce requests time out after the broker wrote them: the relay resends, the topic holds duplicates, effects stay single', async () => {
    const faults = chain.stack.kafka.faults!;
    const before = (await chain.invariants()).observations.duplicateDeliveries;
    // Replies slower than the 1 s request timeout: each write lands, its outcome is unknown.
    await faults.setLatency(1_300);
    const orders = await chain.openOrders(3, 3);
    await waitFor(
      async () =>
        (await chain.count(
          'order_service',
          "SELECT COUNT(*) AS n FROM t_outbox WHERE retry_count > 0 AND status <> 'SENT'",
        )) > 0,
      { description: 'a produce timed out' },
    );
    await faults.setLatency(0);
    await chain.pay(orders);
    paid += orders.length;
    await chain.settled(paid);
    const report = await chain.expectInvariantsHold();
    expect(report.observations.duplicateDeliveries).toBeGreaterThan(before);
  });
});

/** True when every key is among the event keys the order topic holds. */
async function topicHolds(chain: TradingStack, keys: Set<string>): Promise<boolean> {
  const kafka = new Kafka(
    testKafkaConfig({ brokers: chain.stack.kafkaBrokers, logLevel: logLevel.NOTHING }),
  );
  const messages = await readWholeTopic(kafka, chain.targets().topics.order);
  const published = new Set(messages.map((m) => m.headers['event-key']));
  return [...keys].every((k) => published.has(k));
}
