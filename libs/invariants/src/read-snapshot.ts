import { Kafka, logLevel } from 'kafkajs';
import { InvariantTargets } from './invariant-targets';
import {
  inSnapshot,
  readAccounts,
  readCoupons,
  readFulfillments,
  readInbox,
  readJournals,
  readOrders,
  readOutbox,
} from './read-databases';
import { readCommittedOffsets, readDeadLetters, readEventTopic } from './read-topics';
import { ConsumerSnapshot, Snapshot } from './snapshot';

/**
 * Reads a deployment, downstream first, so that a live system cannot produce false alarms:
 * committed offsets before the inboxes (a message below the committed offset was processed
 * before it, so its inbox row is visible); effects (ledger, fulfillments) before their causes
 * (coupons, orders); outbox rows before the topics (a SENT row's message is already there).
 */
export async function readSnapshot(targets: InvariantTargets): Promise<Snapshot> {
  const kafka = new Kafka({
    clientId: 'invariant-checker',
    brokers: targets.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const { mysqlUrl, databases } = targets;
  const committed = await Promise.all(
    targets.consumers.map((c) => readCommittedOffsets(kafka, c.groupId, c.topics)),
  );

  const inboxes = new Map<string, Awaited<ReturnType<typeof readInbox>>>();
  const accounting = await inSnapshot(mysqlUrl, databases.accounting, async (query) => {
    for (const c of targets.consumers.filter((c) => c.database === databases.accounting))
      inboxes.set(c.name, await readInbox(query, c.name));
    return { journals: await readJournals(query), accounts: await readAccounts(query) };
  });
  const fulfillment = await inSnapshot(mysqlUrl, databases.fulfillment, async (query) => {
    for (const c of targets.consumers.filter((c) => c.database === databases.fulfillment))
      inboxes.set(c.name, await readInbox(query, c.name));
    return { fulfillments: await readFulfillments(query), outbox: await readOutbox(query) };
  });
  const coupons = await inSnapshot(mysqlUrl, databases.couponProvider, readCoupons);
  const order = await inSnapshot(mysqlUrl, databases.order, async (query) => ({
    orders: await readOrders(query),
    outbox: await readOutbox(query),
  }));

  const topicMessages = [
    ...(await readEventTopic(kafka, targets.topics.order)),
    ...(await readEventTopic(kafka, targets.topics.fulfillment)),
  ];
  const consumers: ConsumerSnapshot[] = [];
  for (const [i, c] of targets.consumers.entries()) {
    const inbox = inboxes.get(c.name);
    if (!inbox) throw new Error(`consumer ${c.name}: database ${c.database} is not a target`);
    consumers.push({
      name: c.name,
      topics: c.topics,
      gateStart: c.gateStart ?? 'version-1',
      ...inbox,
      deadLetters: await readDeadLetters(kafka, c.deadLetterTopic, c.name),
      committed: committed[i],
    });
  }
  return {
    orders: order.orders,
    outbox: { 'order-service': order.outbox, 'fulfillment-service': fulfillment.outbox },
    fulfillments: fulfillment.fulfillments,
    coupons,
    journals: accounting.journals,
    accounts: accounting.accounts,
    consumers,
    topicMessages,
  };
}
