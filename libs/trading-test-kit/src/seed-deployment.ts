import { EventHeader } from '@outbox-inbox/messaging';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { InvariantTargets } from '@app/trading-checker';
import { Kafka, Partitioners } from 'kafkajs';
import { createConnection } from 'mysql2/promise';
import { waitFor } from '@outbox-inbox/test-kit';

const CHUNK = 50_000;

/** Each service's migrations (the caller passes them in: libs never import apps). */
export interface ServiceMigrations {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  order: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  fulfillment: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  accounting: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  couponProvider: Function[];
}

/**
 * Seeds a deployment that lived long: `orders` paid orders with their history, fulfillment,
 * coupon, journals and gates, written straight into the tables in the shapes the services
 * write (INSERT … SELECT over MariaDB's sequence tables, chunk by chunk). Retention has passed
 * over all but the last `recent`: only those keep their inbox and outbox rows and their
 * messages in the topics (within what the librdkafka mock keeps per partition). Each
 * consumer's group (`ConsumerTarget.groupId`, the services' own) has committed past every
 * message, so the deployment is at rest.
 */
export async function seedDeployment(
  targets: InvariantTargets,
  kafka: Kafka,
  migrations: ServiceMigrations,
  orders: number,
  recent: number,
): Promise<void> {
  const { databases } = targets;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const plan: Array<[string, Function[]]> = [
    [databases.order, migrations.order],
    [databases.fulfillment, migrations.fulfillment],
    [databases.accounting, migrations.accounting],
    [databases.couponProvider, migrations.couponProvider],
  ];
  for (const [database, migrations] of plan) {
    const root = await createConnection({ uri: targets.mysqlUrl });
    await root.query(`CREATE DATABASE \`${database}\``);
    await root.end();
    const source = await openMysqlDataSource({
      url: `${targets.mysqlUrl}/${database}`,
      migrations,
      poolSize: 1,
    });
    await source.runMigrations({ transaction: 'each' });
    await source.destroy();
  }
  const db = (name: string) =>
    createConnection({ uri: `${targets.mysqlUrl}/${name}`, multipleStatements: true });
  const order = await db(databases.order);
  const fulfillment = await db(databases.fulfillment);
  const accounting = await db(databases.accounting);
  const coupons = await db(databases.couponProvider);
  const firstRecent = orders - recent + 1;
  try {
    await accounting.query(`
      INSERT INTO t_account (code, currency, name, type, balance, created_at, updated_at) VALUES
        ('1100', 'EUR', 'Payment clearing', 'ASSET', 0, NOW(3), NOW(3)),
        ('2200', 'EUR', 'Coupon liability', 'LIABILITY', 0, NOW(3), NOW(3)),
        ('4000', 'EUR', 'Sales revenue', 'REVENUE', 0, NOW(3), NOW(3)),
        ('5100', 'EUR', 'Coupon expense', 'EXPENSE', 0, NOW(3), NOW(3))`);
    for (let from = 1; from <= orders; from += CHUNK) {
      const seq = `seq_${from}_to_${Math.min(orders, from + CHUNK - 1)}`;
      await order.query(`
        INSERT INTO t_order (id, user_id, amount, currency, status, version, pay_order_id,
          settled_by_notify_id, created_at, updated_at, paid_at)
        SELECT seq, CONCAT('u', seq % 997), 1000 + seq % 500, 'EUR', 'PAID', 3, CONCAT('pay-', seq),
          CONCAT('n-', seq), NOW(3), NOW(3), NOW(3) FROM ${seq};
        INSERT INTO t_order_transition (order_id, version, status, event_type, occurred_at)
        SELECT seq, v.version, v.status, v.event_type, NOW(3) FROM ${seq}
        JOIN (SELECT 1 AS version, 'CREATED' AS status, 'OrderCreated' AS event_type
              UNION ALL SELECT 2, 'PAYING', 'OrderPaymentStarted' UNION ALL SELECT 3, 'PAID', 'OrderPaid') v;`);
      await fulfillment.query(`
        INSERT INTO t_fulfillment (id, order_id, type, user_id, status, version, event_version,
          grant_key, coupon_value, currency, coupon_code, attempts, created_at, updated_at)
        SELECT seq, seq, 'COUPON', CONCAT('u', seq % 997), 'DONE', 2, 1, CONCAT('OrderPaid:', seq, ':3'),
          10, 'EUR', CONCAT('C', seq), 1, NOW(3), NOW(3) FROM ${seq};
        INSERT INTO t_inbox_version (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
        SELECT 'fulfillment-service', 'Order', seq, 3, 0, NOW(3) FROM ${seq};`);
      await coupons.query(`
        INSERT INTO t_coupon (coupon_code, idempotency_key, user_id, order_id, value, currency, status, granted_at)
        SELECT CONCAT('C', seq), CONCAT('OrderPaid:', seq, ':3'), CONCAT('u', seq % 997), seq, 10, 'EUR',
          'GRANTED', NOW(3) FROM ${seq};`);
      await accounting.query(`
        INSERT INTO t_journal (id, source_event_key, source_event_id, event_type, kind, order_id, currency,
          total_debit, total_credit, description, occurred_at, created_at)
        SELECT 2 * seq - 1, CONCAT('OrderPaid:', seq, ':3'), UUID(), 'OrderPaid', 'PAYMENT', seq, 'EUR',
          1000 + seq % 500, 1000 + seq % 500, 'payment', NOW(3), NOW(3) FROM ${seq}
        UNION ALL
        SELECT 2 * seq, CONCAT('FulfillmentDone:', seq, ':1'), UUID(), 'FulfillmentDone', 'COUPON_GRANT', seq,
          'EUR', 10, 10, 'coupon', NOW(3), NOW(3) FROM ${seq};
        INSERT INTO t_journal_line (journal_id, line_no, account_code, currency, debit, credit)
        SELECT 2 * seq - 1, 1, '1100', 'EUR', 1000 + seq % 500, 0 FROM ${seq}
        UNION ALL SELECT 2 * seq - 1, 2, '4000', 'EUR', 0, 1000 + seq % 500 FROM ${seq}
        UNION ALL SELECT 2 * seq, 1, '5100', 'EUR', 10, 0 FROM ${seq}
        UNION ALL SELECT 2 * seq, 2, '2200', 'EUR', 0, 10 FROM ${seq};
        INSERT INTO t_inbox_version (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
        SELECT 'accounting-service', 'Order', seq, 3, 0, NOW(3) FROM ${seq}
        UNION ALL SELECT 'accounting-service', 'Fulfillment', seq, 1, 0, NOW(3) FROM ${seq};`);
    }
    await recentRows(order, fulfillment, accounting, firstRecent, orders);
  } finally {
    await Promise.all([order, fulfillment, accounting, coupons].map((c) => c.end()));
  }
  await publishRecent(targets, kafka, firstRecent, orders);
}

/** The rows retention kept: inbox rows and SENT outbox rows of the recent orders, watermarks. */
async function recentRows(
  order: Awaited<ReturnType<typeof createConnection>>,
  fulfillment: Awaited<ReturnType<typeof createConnection>>,
  accounting: Awaited<ReturnType<typeof createConnection>>,
  first: number,
  last: number,
): Promise<void> {
  const seq = `seq_${first}_to_${last}`;
  const orderEvents = `(SELECT 1 AS v, 'OrderCreated' AS t, 'ignored' AS o UNION ALL
    SELECT 2, 'OrderPaymentStarted', 'ignored' UNION ALL SELECT 3, 'OrderPaid', 'applied')`;
  const outbox = (type: string, events: string) => `
    INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type, event_key, event_id,
      payload, headers, status, next_retry_at, created_at, updated_at, sent_at)
    SELECT '${type}', seq, e.v, e.t, CONCAT(e.t, ':', seq, ':', e.v), UUID(), '{}', '{}', 'SENT',
      NOW(3), NOW(3), NOW(3), NOW(3) FROM ${seq} JOIN ${events} e`;
  await order.query(outbox('Order', orderEvents));
  await fulfillment.query(`${outbox('Fulfillment', "(SELECT 1 AS v, 'FulfillmentDone' AS t)")};
    INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
    SELECT 'fulfillment-service', CONCAT(e.t, ':', seq, ':', e.v), e.t, UUID(), e.o, NOW(3)
    FROM ${seq} JOIN ${orderEvents} e;
    INSERT INTO t_inbox_prune VALUES ('fulfillment-service', NOW(3) - INTERVAL 7 DAY, 1, NOW(3));`);
  await accounting.query(`
    INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
    SELECT 'accounting-service', CONCAT(e.t, ':', seq, ':', e.v), e.t, UUID(), 'applied', NOW(3)
    FROM ${seq} JOIN (SELECT 1 AS v, 'OrderCreated' AS t UNION ALL SELECT 2, 'OrderPaymentStarted'
      UNION ALL SELECT 3, 'OrderPaid' UNION ALL SELECT 1, 'FulfillmentDone') e;
    INSERT INTO t_inbox_prune VALUES ('accounting-service', NOW(3) - INTERVAL 7 DAY, 1, NOW(3));
    UPDATE t_account a JOIN (SELECT account_code, SUM(debit - credit) AS sum FROM t_journal_line
      GROUP BY account_code) l ON l.account_code = a.code SET a.balance = l.sum;`);
}

/** Publishes the recent orders' events (what the relay sent) and commits both groups past them. */
async function publishRecent(targets: InvariantTargets, kafka: Kafka, first: number, last: number) {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const message = (type: string, aggregateType: string, id: number, version: number) => ({
    key: String(id),
    value: '{}',
    headers: {
      [EventHeader.eventKey]: `${type}:${id}:${version}`,
      [EventHeader.eventType]: type,
      [EventHeader.aggregateType]: aggregateType,
      [EventHeader.aggregateId]: String(id),
      [EventHeader.aggregateVersion]: String(version),
    },
  });
  try {
    for (let from = first; from <= last; from += 1000) {
      const ids = Array.from({ length: Math.min(1000, last - from + 1) }, (_, i) => from + i);
      await producer.send({
        topic: targets.topics.order,
        acks: -1,
        messages: ids.flatMap((id) =>
          ['OrderCreated', 'OrderPaymentStarted', 'OrderPaid'].map((t, v) =>
            message(t, 'Order', id, v + 1),
          ),
        ),
      });
      await producer.send({
        topic: targets.topics.fulfillment,
        acks: -1,
        messages: ids.map((id) => message('FulfillmentDone', 'Fulfillment', id, 1)),
      });
    }
  } finally {
    await producer.disconnect();
  }
  // Each group reads its topics to the end and commits, as the services' consumers do.
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (const c of targets.consumers) {
      const ends = new Map<string, bigint>();
      for (const topic of c.topics)
        for (const e of await admin.fetchTopicOffsets(topic))
          ends.set(`${topic}:${e.partition}`, BigInt(e.high));
      // A short session: should the mock broker keep this member after it leaves, the
      // services' own members join the group without waiting out kafkajs's 30 s default.
      const consumer = kafka.consumer({
        groupId: c.groupId,
        maxWaitTimeInMs: 100,
        sessionTimeout: 6_000,
        rebalanceTimeout: 6_000,
        heartbeatInterval: 500,
      });
      await consumer.connect();
      try {
        await consumer.subscribe({ topics: c.topics, fromBeginning: true });
        await consumer.run({ autoCommitInterval: 100, eachBatch: async () => undefined });
        const done = async () => {
          for (const { topic, partitions } of await admin.fetchOffsets({
            groupId: c.groupId,
            topics: c.topics,
          }))
            for (const p of partitions)
              if (BigInt(p.offset) < (ends.get(`${topic}:${p.partition}`) ?? 0n)) return false;
          return true;
        };
        // A liveness bound only: a large seed's group reads its whole backlog first.
        await waitFor(done, {
          timeoutMs: 600_000,
          intervalMs: 200,
          description: `${c.groupId} committed at the end of its topics`,
        });
      } finally {
        await consumer.disconnect();
      }
    }
  } finally {
    await admin.disconnect();
  }
}
