import { Kafka, logLevel } from 'kafkajs';
import { consumerChannels } from '@app/trading-events';
import { KafkaApiKey, KafkaErrorCode, waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { caughtUp } from '../support/kafka-offsets';
import { TradingStack } from '../support/trading-stack';

jest.setTimeout(180_000);

/** More injected errors than any test makes requests: they last until cleared. */
const UNTIL_CLEARED = 10_000;

/**
 * [mock-only] A consumer killed between its DB commit and its offset commit. Every offset
 * commit is made to fail with the mock's request-error pushes until the kill, which no real
 * broker does on demand. On Apache Kafka the same redelivery follows from a consumer killed
 * mid-batch: consumer-faults.int-spec.ts ("the group scaled 1 → 3 → 1 under load", SIGKILLed
 * instances) and the demo's crashed accounting-service.
 */
describe('[mock-only] chaos: a consumer killed between its two commits', () => {
  let chain: TradingStack;
  const fulfillmentGroup = () =>
    consumerChannels('fulfillment-service', chain.stack.topicPrefix).groupId;
  let kafka: Kafka;
  let paid = 0;

  const sinceStart = async (service: 'fulfillment-service' | 'accounting-service') =>
    (
      await requestJson<{ sinceStart: Record<string, number> }>(
        `${chain.url(service)}/inbox/stats`,
        { headers: chain.opsHeaders },
      )
    ).body.sinceStart;

  beforeAll(async () => {
    chain = await TradingStack.start({ kafkaMockOnly: true });
    kafka = new Kafka(
      testKafkaConfig({ brokers: chain.stack.kafkaBrokers, logLevel: logLevel.NOTHING }),
    );
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('a consumer killed after its DB commit, before its offset commit: redelivered, applied once', async () => {
    const mock = chain.stack.kafkaMock!;
    const fulfillment = chain.stack.services['fulfillment-service'];
    const accounting = chain.stack.services['accounting-service'];
    const topic = chain.targets().topics.order;
    // Only the fulfillment consumer commits offsets meanwhile, so the injected errors are its.
    await accounting.stop();
    const orders = await chain.openOrders(5);
    await waitFor(() => caughtUp(kafka, fulfillmentGroup(), topic), {
      description: 'fulfillment committed everything so far',
    });
    // From now until the kill every offset commit fails (kafkajs retries each, then the consumer
    // restarts from the old offsets and absorbs what it gets again): once the OrderPaid
    // transactions have committed, Kafka still has the offsets from before them. Kill it then.
    // A few errors only would race the kill: a fast consumer commits after using them up.
    await mock.pushRequestErrors(
      KafkaApiKey.OffsetCommit,
      KafkaErrorCode.RequestTimedOut,
      UNTIL_CLEARED,
    );
    try {
      await chain.pay(orders);
      paid += orders.length;
      await waitFor(
        async () =>
          (await chain.count(
            'fulfillment_service',
            "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE'",
          )) === paid,
        {
          timeoutMs: 90_000,
          intervalMs: 20,
          description: 'the new orders fulfilled (DB committed)',
        },
      );
      await fulfillment.stop('SIGKILL');
    } finally {
      await mock.clearRequestErrors(KafkaApiKey.OffsetCommit);
    }
    // The crash fell between the two commits: Kafka will deliver those events again.
    expect(await caughtUp(kafka, fulfillmentGroup(), topic)).toBe(false);
    accounting.start();
    await accounting.waitHealthy();
    fulfillment.start();
    await fulfillment.waitHealthy();
    await chain.settled(paid);
    // Every message was applied before the kill, and Kafka had not all their offsets: at least
    // one comes again and is absorbed.
    await waitFor(async () => (await sinceStart('fulfillment-service')).duplicates > 0, {
      timeoutMs: 60_000,
      description: 'the redelivered events absorbed as duplicates',
    });
    await chain.expectInvariantsHold();
  });
});
