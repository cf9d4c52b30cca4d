import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApacheKafkaCluster,
  kafkaChoice,
  produceWithConsoleProducer,
  waitFor,
} from '@outbox-inbox/test-kit';
import { TradingStack } from '../support/trading-stack';

/**
 * A producer outside this codebase (another language's client, Debezium's outbox router) may
 * send a valid envelope with none of this project's headers. The consumers take it by its
 * envelope: here Apache Kafka's own console producer (Java, no headers) sends one, of a type
 * the chain does not have, beside a few paid orders. Each consumer records it once and skips
 * it (tolerant reader), and the invariant checker identifies it by its envelope as they do,
 * so it is accounted for, not reported as lost.
 *
 * On Apache Kafka: the run's cluster, or, in the mock lane, a one-node cluster of this file's
 * own. The librdkafka mock takes the Java 4.x client's records without error, but no consumer
 * ever sees them, so the outside client is shown against the real broker only.
 */
let chain: TradingStack;
let ownCluster: ApacheKafkaCluster | undefined;

beforeAll(async () => {
  if (kafkaChoice().kind === 'mock')
    ownCluster = await ApacheKafkaCluster.start({
      nodes: 1,
      dir: mkdtempSync(join(tmpdir(), 'outside-producer-')),
    });
  chain = await TradingStack.start(ownCluster ? { kafkaBrokers: ownCluster.brokers } : {});
}, 300_000);

afterAll(async () => {
  await chain?.stop();
  await ownCluster?.stop();
});

it("a headerless envelope from Kafka's console producer is recorded once by each consumer, and the checker accounts for it", async () => {
  const orders = await chain.openOrders(3);
  expect(await chain.pay(orders)).toEqual([200, 200, 200]);
  await chain.settled(3);

  const invoice = `inv-${randomUUID().slice(0, 8)}`;
  const envelope = {
    eventId: randomUUID(),
    eventType: 'InvoiceIssued',
    eventKey: `InvoiceIssued:${invoice}:1`,
    aggregateType: 'Invoice',
    aggregateId: invoice,
    aggregateVersion: 1,
    schemaVersion: 1,
    occurredAt: new Date().toISOString(),
    payload: { invoiceId: invoice, amount: 1200 },
  };
  const { topics } = chain.targets();
  await produceWithConsoleProducer(chain.stack.kafkaBrokers, topics.order, [
    { key: invoice, value: JSON.stringify(envelope) },
  ]);

  const recorded = (database: 'fulfillment_service' | 'accounting_service') =>
    chain.query<{ outcome: string }>(database, 'SELECT outcome FROM t_inbox WHERE event_key = ?', [
      envelope.eventKey,
    ]);
  for (const database of ['fulfillment_service', 'accounting_service'] as const)
    await waitFor(async () => (await recorded(database)).length > 0, {
      description: `${database} recorded ${envelope.eventKey}`,
      timeoutMs: 60_000,
    });
  expect(await recorded('fulfillment_service')).toEqual([{ outcome: 'ignored' }]);
  expect(await recorded('accounting_service')).toEqual([{ outcome: 'ignored' }]);

  // The consumers committed past it: at rest, the checker must find it accounted for.
  const report = await waitFor(
    async () => {
      const r = await chain.invariants();
      return r.observations.inFlightEvents.length === 0 && r;
    },
    { description: 'the consumers committed past every message', timeoutMs: 60_000 },
  );
  expect(report.violations).toEqual([]);
  expect(report.observations.paidOrders).toBe(3);
}, 300_000);
