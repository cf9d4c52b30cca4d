import { consumerChannels, topicForAggregate } from '@app/trading-events';
import { KAFKA_STARTUP_MS, waitFor } from '@outbox-inbox/test-kit';
import { FAULT_MS, Grant, KafkaPrincipal, SecuredFaultChain } from './secured-fault-chain';

/**
 * Issue 36, item 7, for the consuming services (secured-faults.int-spec.ts does the
 * order-service's relay): fulfillment-service's and accounting-service's consumers denied their
 * topic or their group, and fulfillment-service's relay denied its own topic. Each time the
 * service keeps running (the same
 * process: no crash loop), /health/details names the cause and what it concerns, nothing is
 * dead-lettered, skipped or DEAD, and once the cause is fixed every paid order is fulfilled and
 * booked exactly once. One secured node.
 */
const ORDERS_PER_FAULT = 3;
const CONSUMERS = ['fulfillment-service', 'accounting-service'] as const;
type Consumer = (typeof CONSUMERS)[number];

let f: SecuredFaultChain;
let orderTopic: string;

beforeAll(async () => {
  f = await SecuredFaultChain.start('secured-consumer-faults');
  orderTopic = topicForAggregate('Order', f.topicPrefix);
  // A secured node, then four services on a shared machine.
}, 2 * KAFKA_STARTUP_MS);

afterAll(async () => {
  await f?.stop();
});

/** Each process now, to show later that the same one kept running. */
function pids(): Record<KafkaPrincipal, number | undefined> {
  return {
    'order-service': f.process('order-service').pid,
    'fulfillment-service': f.process('fulfillment-service').pid,
    'accounting-service': f.process('accounting-service').pid,
  };
}

/** Opens and pays orders: the callbacks are served whatever the consumers' trouble. */
async function payOrders(): Promise<void> {
  const orders = await f.chain.openOrders(ORDERS_PER_FAULT);
  expect(await f.chain.pay(orders)).toEqual(orders.map(() => 200));
}

/**
 * Waits until `consumer`'s /health/details names `cause` and `subject` in its `inbox`
 * component; then asserts the rest of the answer: readiness up, the same process, nothing
 * dead-lettered.
 */
async function expectConsumerHeld(
  consumer: Consumer,
  cause: RegExp,
  subject: string,
  pid: number | undefined,
): Promise<void> {
  const reason = await f.waitForReason(consumer, 'inbox', cause);
  expect(reason).toContain(subject);
  expect(await f.health(consumer, 'ready')).toBe(200);
  expect(f.process(consumer).running).toBe(true);
  expect(f.process(consumer).pid).toBe(pid);
  expect((await f.details(consumer)).components.inbox.deadLetterTopicMessages ?? 0).toBe(0);
}

/** Once the cause is gone: every paid order fulfilled and booked once, the inboxes clear. */
async function expectAllFlowOnce(): Promise<void> {
  await f.chain.settled(await f.paidCount(), FAULT_MS);
  for (const consumer of CONSUMERS) {
    await waitFor(async () => (await f.details(consumer)).components.inbox.status === 'up', {
      timeoutMs: FAULT_MS,
      description: `${consumer}'s inbox up again`,
    });
  }
}

function readGrant(principal: Consumer, resource: 'topic' | 'group', name: string): Grant {
  return { principal, resource, name, operation: 'READ' };
}

describe("the consuming services' faults on a secured cluster: a clear answer, nothing lost", () => {
  it(
    'their READ on the order events denied: each keeps running, names the topic, and once granted applies every event once',
    async () => {
      const before = pids();
      const grants = CONSUMERS.map((c) => readGrant(c, 'topic', orderTopic));
      for (const grant of grants) await f.deny(grant);
      await payOrders();
      for (const consumer of CONSUMERS)
        await expectConsumerHeld(
          consumer,
          /TOPIC_AUTHORIZATION_FAILED/,
          orderTopic,
          before[consumer],
        );

      for (const grant of grants) await f.grant(grant);
      await expectAllFlowOnce();
      expect(pids()).toEqual(before);
    },
    FAULT_MS,
  );

  it(
    'their group denied (GROUP_AUTHORIZATION_FAILED): each keeps running, names the group, and once granted applies every event once',
    async () => {
      const before = pids();
      const groups = CONSUMERS.map((c) => consumerChannels(c, f.topicPrefix).groupId);
      const grants = CONSUMERS.map((c, i) => readGrant(c, 'group', groups[i]));
      for (const grant of grants) await f.deny(grant);
      await payOrders();
      for (const [i, consumer] of CONSUMERS.entries())
        await expectConsumerHeld(
          consumer,
          /GROUP_AUTHORIZATION_FAILED/,
          groups[i],
          before[consumer],
        );

      for (const grant of grants) await f.grant(grant);
      await expectAllFlowOnce();
      expect(pids()).toEqual(before);
    },
    FAULT_MS,
  );

  it(
    "fulfillment-service's WRITE on its own events denied: its outbox rows wait (none DEAD), the topic is named, then they flow",
    async () => {
      const before = pids();
      const fulfillmentTopic = topicForAggregate('Fulfillment', f.topicPrefix);
      const grant: Grant = {
        principal: 'fulfillment-service',
        resource: 'topic',
        name: fulfillmentTopic,
        operation: 'WRITE',
      };
      await f.deny(grant);
      await payOrders();
      const reason = await f.waitForReason(
        'fulfillment-service',
        'outboxRelay',
        /TOPIC_AUTHORIZATION_FAILED/,
      );
      expect(reason).toContain(fulfillmentTopic);
      expect(await f.health('fulfillment-service', 'ready')).toBe(200);
      const byStatus = await f.outboxByStatus('fulfillment_service');
      expect(byStatus.DEAD).toBeUndefined();
      expect((byStatus.NEW ?? 0) + (byStatus.SENDING ?? 0)).toBeGreaterThan(0);

      await f.grant(grant);
      await expectAllFlowOnce();
      expect(pids()).toEqual(before);
    },
    FAULT_MS,
  );
});
