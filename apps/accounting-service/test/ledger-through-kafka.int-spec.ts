import { randomBytes } from 'node:crypto';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { consumerChannels } from '@app/trading-events';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { Partitioners, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  AccountingTestApp,
  consumedEverything,
  startAccountingApp,
  toMessage,
} from './accounting-test-app';
import {
  fulfillmentDone,
  fulfillmentReverted,
  orderCancelled,
  orderOpened,
  orderPaid,
} from './ledger-fixtures';

// The accounting-service as deployed (module, inbox transport, HTTP), fed real envelopes
// through the broker: every event is booked once however often it is delivered, in whatever
// order the two topics arrive, across a restart of the consumer.

describe('accounting-service fed through Kafka', () => {
  let env: TestEnvironment;
  let producer: Producer;
  let databaseUrl: string;
  let orderTopic: string;
  let fulfillmentTopic: string;
  let deadLetterTopic: string;
  let topicPrefix: string;
  const consumer = `accounting-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    env = await startTestEnvironment();
    databaseUrl = (await env.createDatabase('accounting')).url;
    topicPrefix = `acc${randomBytes(3).toString('hex')}.`;
    orderTopic = `${topicPrefix}order.events`;
    fulfillmentTopic = `${topicPrefix}fulfillment.events`;
    await createExactTopic(orderTopic, 3);
    await createExactTopic(fulfillmentTopic, 2);
    // The consumer's retry topic, named as the service names it.
    await createExactTopic(consumerChannels(consumer, topicPrefix).retryTopic, 1);
    deadLetterTopic = await env.createTopic('accounting.dlq', 1);
    producer = env.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await env?.stop();
  });

  async function createExactTopic(topic: string, partitions: number): Promise<void> {
    await env.infra.kafka.createTopics({ [topic]: partitions });
  }

  function start(): Promise<AccountingTestApp> {
    return startAccountingApp({
      databaseUrl,
      brokers: env.infra.kafkaBrokers,
      topicPrefix,
      consumer,
      deadLetterTopic,
    });
  }

  async function publish(topic: string, events: EventEnvelope[]): Promise<void> {
    await producer.send({ topic, messages: events.map(toMessage) });
  }

  async function waitUntilConsumed(): Promise<void> {
    await waitFor(
      () =>
        consumedEverything(env.kafka, consumerChannels(consumer, topicPrefix).groupId, [
          orderTopic,
          fulfillmentTopic,
        ]),
      {
        description: 'every published message committed by the accounting consumer',
        timeoutMs: 40_000,
      },
    );
  }

  async function getJson<T>(
    app: AccountingTestApp,
    path: string,
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${app.url}${path}`, {
      headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function journalsPerSourceEvent(dataSource: DataSource): Promise<Map<string, number>> {
    const rows: Array<{ source_event_key: string; n: string }> = await dataSource.query(
      'SELECT source_event_key, COUNT(*) AS n FROM t_journal GROUP BY source_event_key',
    );
    return new Map(rows.map((r) => [r.source_event_key, Number(r.n)]));
  }

  type Accounts = { accounts: Array<{ code: string; currency: string; balance: string }> };
  type Report = {
    clean: boolean;
    paidOrders: number;
    paymentJournals: number;
    journals: number;
    mismatches: Array<{ kind: string; orderId?: string }>;
  };

  const orders = Array.from({ length: 10 }, (_, i) => ({ id: `k${i + 1}`, amount: 1000 + 10 * i }));
  const refunded = orders.slice(0, 2);
  const sum = (list: typeof orders) => list.reduce((s, o) => s + o.amount, 0);

  it('books each event once, published twice and out of order, with exact balances', async () => {
    const paid = orders.map((o) => orderPaid(o.id, o.amount));
    const granted = [
      ...orders.map((o) => fulfillmentDone(o.id, 100)),
      fulfillmentDone('k11', 100, 'USD'),
    ];
    const revoked = refunded.map((o) => fulfillmentReverted(o.id, 100));
    const cancelled = [...refunded.map((o) => orderCancelled(o.id)), orderCancelled('k20', 3)];
    const app = await start();
    try {
      // The fulfillment topic first: its journals need nothing from the order topic.
      await publish(fulfillmentTopic, [...granted, ...revoked]);
      // OrderPaid before the events that precede it: the inbox parks it until its gap fills.
      await publish(orderTopic, paid.slice(0, 3));
      await publish(orderTopic, [
        ...orders.flatMap((o) => orderOpened(o.id, o.amount)),
        ...paid.slice(3),
        ...orderOpened('k11', 5000, 'USD'),
        orderPaid('k11', 5000, 'USD'),
        ...orderOpened('k20', 300),
        ...cancelled,
      ]);
      // Every booking event once more: the at-least-once duplicates the outbox may produce.
      await publish(fulfillmentTopic, [...granted, ...revoked]);
      await publish(orderTopic, [...paid, orderPaid('k11', 5000, 'USD'), ...cancelled]);
      await waitUntilConsumed();

      const perEvent = await journalsPerSourceEvent(app.dataSource);
      const bookable = [...paid, ...granted, ...revoked, ...cancelled.slice(0, 2)];
      expect(perEvent.size).toBe(bookable.length + 1);
      expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
      expect(perEvent.has(cancelled[2].eventKey)).toBe(false);

      const { body } = await getJson<Accounts>(app, '/ledger/accounts');
      expect(body.accounts.map((a) => `${a.code} ${a.currency} ${a.balance}`)).toEqual([
        `1100 EUR ${sum(orders)}`,
        '1100 USD 5000',
        `2200 EUR ${10 * 100 - 2 * 100}`,
        '2200 USD 100',
        `2300 EUR ${sum(refunded)}`,
        `4000 EUR ${sum(orders) - sum(refunded)}`,
        '4000 USD 5000',
        `5100 EUR ${10 * 100 - 2 * 100}`,
        '5100 USD 100',
      ]);
      const report = await getJson<Report>(app, '/ledger/reconciliation');
      expect(report.body).toMatchObject({
        clean: true,
        paidOrders: 11,
        paymentJournals: 11,
        journals: 11 + 11 + 2 + 2,
        mismatches: [],
      });
    } finally {
      await app.close();
    }
  });

  it('books once across a consumer restart, with redeliveries on both sides of it', async () => {
    const more = Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}`, amount: 700 + i }));
    const first = await start();
    const before = (await getJson<Report>(first, '/ledger/reconciliation')).body.paidOrders;
    const clearingBefore = BigInt(
      (await getJson<Accounts>(first, '/ledger/accounts')).body.accounts.find(
        (a) => a.code === '1100' && a.currency === 'EUR',
      )?.balance ?? 0,
    );
    try {
      await publish(
        orderTopic,
        more
          .slice(0, 3)
          .flatMap((o) => [...orderOpened(o.id, o.amount), orderPaid(o.id, o.amount)]),
      );
      await waitFor(
        async () =>
          (await getJson<Report>(first, '/ledger/reconciliation')).body.paidOrders === before + 3,
        {
          description: 'the first three new orders booked',
        },
      );
    } finally {
      await first.close();
    }
    // While the consumer is down: duplicates of what it booked, and new orders.
    await publish(orderTopic, [
      ...more.slice(0, 3).map((o) => orderPaid(o.id, o.amount)),
      ...more.slice(3).flatMap((o) => [...orderOpened(o.id, o.amount), orderPaid(o.id, o.amount)]),
    ]);
    const second = await start();
    try {
      await publish(
        orderTopic,
        more.map((o) => orderPaid(o.id, o.amount)),
      );
      await waitUntilConsumed();

      const report = await getJson<Report>(second, '/ledger/reconciliation');
      expect(report.body).toMatchObject({
        clean: true,
        paidOrders: before + 6,
        paymentJournals: before + 6,
      });
      const { body } = await getJson<Accounts>(second, '/ledger/accounts');
      const clearing = body.accounts.find((a) => a.code === '1100' && a.currency === 'EUR');
      expect(BigInt(clearing?.balance ?? 0) - clearingBefore).toBe(BigInt(sum(more)));
    } finally {
      await second.close();
    }
  });

  describe('over HTTP', () => {
    let app: AccountingTestApp;

    beforeAll(async () => {
      app = await start();
    });

    afterAll(async () => {
      await app?.close();
    });

    it("shows an order's journals and lines, ids and money as strings", async () => {
      type OrderLedger = {
        orderId: string;
        paid: { amount: string } | null;
        journals: Array<{
          id: unknown;
          kind: string;
          total: unknown;
          lines: Array<{ accountCode: string; debit: unknown; credit: unknown }>;
        }>;
      };
      await publish(orderTopic, [...orderOpened('h1', 1234), orderPaid('h1', 1234)]);
      await publish(fulfillmentTopic, [fulfillmentDone('h1', 55)]);
      const { status, body } = await waitFor(
        async () => {
          const answer = await getJson<OrderLedger>(app, '/ledger/orders/h1');
          return answer.status === 200 && answer.body.journals.length === 2 && answer;
        },
        { description: 'both journals of order h1 booked' },
      );

      expect(status).toBe(200);
      expect(body.paid?.amount).toBe('1234');
      expect(body.journals.map((j) => j.kind).sort()).toEqual(['COUPON_GRANT', 'PAYMENT']);
      expect(
        body.journals.every((j) => typeof j.id === 'string' && typeof j.total === 'string'),
      ).toBe(true);
      expect(body.journals.find((j) => j.kind === 'PAYMENT')?.lines).toEqual([
        expect.objectContaining({ accountCode: '1100', debit: '1234', credit: '0' }),
        expect.objectContaining({ accountCode: '4000', debit: '0', credit: '1234' }),
      ]);
      expect(body.journals.find((j) => j.kind === 'COUPON_GRANT')?.lines).toEqual([
        expect.objectContaining({ accountCode: '5100', debit: '55', credit: '0' }),
        expect.objectContaining({ accountCode: '2200', debit: '0', credit: '55' }),
      ]);
    });

    it('answers 404 for an order the ledger never saw and 400 for a malformed id', async () => {
      expect((await getJson(app, '/ledger/orders/nope')).status).toBe(404);
      expect((await getJson(app, `/ledger/orders/${'x'.repeat(33)}`)).status).toBe(400);
      expect((await getJson(app, '/ledger/orders/a%20b')).status).toBe(400);
    });

    it('documents the ledger endpoints in the OpenAPI document', async () => {
      const { body } = await getJson<{ paths: Record<string, unknown> }>(app, '/docs-json');
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining([
          '/ledger/accounts',
          '/ledger/orders/{orderId}',
          '/ledger/reconciliation',
        ]),
      );
    });

    it('reports a paid order that has no payment journal', async () => {
      await app.dataSource.query(
        `INSERT INTO t_paid_order VALUES ('lost-1', 'pay-lost', 900, 'EUR', NOW(3), 'OrderPaid:lost-1:3', NOW(3))`,
      );
      const { body } = await getJson<Report>(app, '/ledger/reconciliation');
      expect(body.clean).toBe(false);
      expect(body.mismatches).toEqual([
        expect.objectContaining({ kind: 'PAID_WITHOUT_JOURNAL', orderId: 'lost-1' }),
      ]);
    });
  });
});
