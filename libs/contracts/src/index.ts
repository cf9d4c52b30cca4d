export { createEnvelope, validateEnvelope, validateEnvelopeOnly } from './create-envelope';
export type { NewEvent } from './create-envelope';
export { EventEnvelope, eventKeyOf, TraceContext } from './envelope';
export { defineEvent } from './event-definition';
export type { EventDefinition, PayloadClass, PayloadOf } from './event-definition';
export { EventRegistry } from './event-registry';
export { envelopeHeaders, EventHeader, readHeaders } from './kafka-headers';
export { EventValidationError, fieldErrorsOf, validatePlain } from './validation';
export type { FieldError, ValidateOptions } from './validation';
export { PageLimit } from './page-limit';
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
