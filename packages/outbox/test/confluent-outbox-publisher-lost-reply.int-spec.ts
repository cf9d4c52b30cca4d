import { KAFKA_STARTUP_MS, KafkaBroker, startKafka } from '@outbox-inbox/test-kit';
import { ConfluentOutboxPublisher } from '../src/confluent';
import { TopicBatch } from '../src/publisher/outbox-publisher';
import { readTopicValues } from './read-topic-values';

const TOPIC = 'outbox.lost-reply.confluent';

/**
 * The kafkajs publisher's lost-reply case (kafka-outbox-publisher-lost-reply.int-spec.ts), on
 * librdkafka's idempotent producer with 5 requests in flight: after a send whose reply was lost,
 * every message it acknowledges is on the topic once, in order, and the lost one at most once.
 */
describe('ConfluentOutboxPublisher after a send whose reply was lost', () => {
  let broker: KafkaBroker;
  let publisher: ConfluentOutboxPublisher;

  beforeAll(async () => {
    broker = await startKafka({ faults: true, topics: { [TOPIC]: 1 } });
    publisher = new ConfluentOutboxPublisher(
      { brokers: broker.brokers, clientId: 'lost-reply', logLevel: 0 },
      { requestTimeoutMs: 2_000, producerRetries: 1, topicCacheMs: 60_000 },
    );
  }, KAFKA_STARTUP_MS);

  afterAll(async () => {
    await publisher?.disconnect();
    await broker?.stop();
  });

  const batch = (value: string): TopicBatch[] => [
    { topic: TOPIC, messages: [{ key: 'parcel-1', value, headers: {} }] },
  ];

  it('delivers every message it acknowledges once and in order, and the lost one at most once', async () => {
    const acknowledged: string[] = [];
    await publisher.publish(batch('first'));
    acknowledged.push('first');

    // The broker writes "lost", but its replies would come after every attempt timed out;
    // then the connections drop, taking the late replies with them.
    await broker.faults!.setLatency(60_000);
    await expect(publisher.publish(batch('lost'))).rejects.toThrow();
    await broker.faults!.setLatency(0);
    await broker.faults!.allDown();
    await broker.faults!.allUp();

    for (const value of ['next', 'after']) {
      await publisher.publish(batch(value));
      acknowledged.push(value);
    }
    const delivered = await readTopicValues(broker.brokers, TOPIC);
    expect(delivered.filter((v) => v !== 'lost')).toEqual(acknowledged);
    expect(delivered.filter((v) => v === 'lost').length).toBeLessThanOrEqual(1);
  });
});
