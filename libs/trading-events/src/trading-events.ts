import { EventRegistry } from '@outbox-inbox/messaging';
import { FulfillmentDoneV1 } from './fulfillment/fulfillment-done.v1';
import { FulfillmentRevertedV1 } from './fulfillment/fulfillment-reverted.v1';
import { OrderCancelledV1 } from './order/order-cancelled.v1';
import { OrderCreatedV1 } from './order/order-created.v1';
import { OrderPaidV1 } from './order/order-paid.v1';
import { OrderPaymentStartedV1 } from './order/order-payment-started.v1';
import { OrderPaymentFailedV1 } from './order/order-payment-failed.v1';

/** Every event of the trading chain. */
export const TRADING_EVENTS = [
  OrderCreatedV1,
  OrderPaymentStartedV1,
  OrderPaidV1,
  OrderCancelledV1,
  OrderPaymentFailedV1,
  FulfillmentDoneV1,
  FulfillmentRevertedV1,
] as const;

/** A registry of every event of the trading chain. */
export function tradingEventRegistry(): EventRegistry {
  return new EventRegistry(TRADING_EVENTS);
}

/** The topic an aggregate type's events go to: one topic per aggregate type. */
export function topicForAggregate(aggregateType: string, prefix = 'trading.'): string {
  return `${prefix}${aggregateType.toLowerCase()}.events`;
}

/**
 * A consumer's Kafka names in a deployment: its group id, its dead-letter topic and its retry
 * topic (where a replay of its dead letters goes, read by its group alone), all under the
 * deployment's topic prefix, so that two deployments sharing a cluster never share a group or
 * a topic of a consumer. The inbox key (t_inbox.consumer) stays the bare consumer name.
 */
export function consumerChannels(
  consumer: string,
  prefix = 'trading.',
): { groupId: string; deadLetterTopic: string; retryTopic: string } {
  return {
    groupId: `${prefix}${consumer}`,
    deadLetterTopic: `${prefix}${consumer}.dlq`,
    retryTopic: `${prefix}${consumer}.retry`,
  };
}
