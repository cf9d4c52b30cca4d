import { KAFKA_STARTUP_MS, KafkaBroker, startKafka } from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { KafkaOutboxPublisher } from '../src';
import { TopicBatch } from '../src/publisher/outbox-publisher';
import { readTopicValues } from './read-topic-values';

const TOPIC = 'outbox.lost-reply';

/**
 * A send whose reply is lost (the broker wrote it, the client timed out) has an unknown
 * outcome: the relay sends those rows again later, in another batch. Nothing the publisher
 * acknowledges afterwards may be missing from the topic. kafkajs's idempotent producer hands
 * the failed send's sequence numbers to the next one, so a broker that had written the first
 * took the second for a retry of it (DUPLICATE_SEQUENCE_NUMBER), acknowledged it and dropped it.
 */
describe('KafkaOutboxPublisher after a send whose reply was lost', () => {
  let broker: KafkaBroker;
  let publisher: KafkaOutboxPublisher;

  beforeAll(async () => {
    broker = await startKafka({ faults: true, topics: { [TOPIC]: 1 } });
    publisher = new KafkaOutboxPublisher(
      { brokers: broker.brokers, clientId: 'lost-reply', logLevel: logLevel.NOTHING },
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

  it('delivers every message it acknowledges: acknowledged ⊆ delivered', async () => {
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
    expect(acknowledged.filter((v) => !delivered.includes(v))).toEqual([]);
  });
});
