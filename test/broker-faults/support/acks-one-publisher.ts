import { testKafkaConfig } from '@outbox-inbox/test-kit';
import { OutboxPublisher, TopicBatch } from '@outbox-inbox/outbox';
import { Admin, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';

/**
 * A relay publisher that asks only the leader to acknowledge (acks=1), for the test that
 * proves acks=1 loses events the relay has marked SENT. Test-only on purpose: the library's
 * KafkaOutboxPublisher offers no such setting. Like the library's, this producer is not
 * idempotent (kafkajs would refuse acks other than -1 on an idempotent one).
 */
export class AcksOnePublisher implements OutboxPublisher {
  private readonly producer: Producer;
  private readonly admin: Admin;
  private connected?: Promise<void>;

  constructor(brokers: string[], requestTimeoutMs: number) {
    const kafka = new Kafka(
      testKafkaConfig({
        clientId: 'acks-one-relay',
        brokers,
        logLevel: logLevel.NOTHING,
        requestTimeout: requestTimeoutMs,
        retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1_000 },
      }),
    );
    this.producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.admin = kafka.admin();
  }

  async missingTopics(topics: string[]): Promise<string[]> {
    await this.connect();
    const known = new Set(await this.admin.listTopics());
    return topics.filter((t) => !known.has(t));
  }

  async publish(batches: TopicBatch[]): Promise<void> {
    await this.connect();
    await this.producer.sendBatch({
      acks: 1,
      topicMessages: batches.map((b) => ({ topic: b.topic, messages: b.messages })),
    });
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }

  private connect(): Promise<void> {
    this.connected ??= Promise.all([this.producer.connect(), this.admin.connect()]).then(
      () => undefined,
    );
    return this.connected;
  }
}
