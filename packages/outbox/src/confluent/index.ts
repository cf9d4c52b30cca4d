/**
 * `@outbox-inbox/outbox/confluent`: the relay's publisher on @confluentinc/kafka-javascript
 * (librdkafka), an optional peer dependency that only this entry point loads.
 */
export { ConfluentOutboxPublisher } from './confluent-outbox-publisher';
export { confluentOutboxPublisher } from './confluent-outbox-publisher-factory';
