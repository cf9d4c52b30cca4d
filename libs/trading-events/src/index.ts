/** The trading chain's event catalogue, its registry and its Kafka names. */
export {
  TRADING_EVENTS,
  consumerChannels,
  topicForAggregate,
  tradingEventRegistry,
} from './trading-events';
export { OrderCreatedV1, OrderCreatedV1Payload } from './order/order-created.v1';
export { OrderPaidV1, OrderPaidV1Payload } from './order/order-paid.v1';
export {
  OrderPaymentStartedV1,
  OrderPaymentStartedV1Payload,
} from './order/order-payment-started.v1';
export { OrderCancelledV1, OrderCancelledV1Payload } from './order/order-cancelled.v1';
export { OrderPaymentFailedV1, OrderPaymentFailedV1Payload } from './order/order-payment-failed.v1';
export { FulfillmentDoneV1, FulfillmentDoneV1Payload } from './fulfillment/fulfillment-done.v1';
export {
  FulfillmentRevertedV1,
  FulfillmentRevertedV1Payload,
} from './fulfillment/fulfillment-reverted.v1';
