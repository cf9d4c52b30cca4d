import { OutboxPublisherFactory } from '../publisher/outbox-publisher-factory';
import { ConfluentOutboxPublisher } from './confluent-outbox-publisher';

/** OutboxModule's and createOutboxRelay's `createPublisher` for the librdkafka publisher. */
export const confluentOutboxPublisher: OutboxPublisherFactory = (kafka, tuning) =>
  new ConfluentOutboxPublisher(kafka, tuning);
