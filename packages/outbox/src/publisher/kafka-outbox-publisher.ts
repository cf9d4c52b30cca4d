import { kafkaClient, KafkaConnection } from '@outbox-inbox/messaging';
import { Admin, Kafka, Producer, RecordMetadata } from 'kafkajs';
import { OutboxError } from '../outbox.errors';
import { ConnectOnce } from './connect-once';
import { adminTopicListing, ListedTopics } from './listed-topics';
import { OutboxPublisher, TopicBatch } from './outbox-publisher';
import type { OutboxPublisherFactory, OutboxPublisherTuning } from './outbox-publisher-factory';
import { PartitionReceipts } from './partition-receipts';
import { RefusedTopic, topicRefusalOf, TopicUnavailableError } from './topic-unavailable';

/**
 * How the relay reaches Kafka: brokers and clientId (ssl, sasl), or a kafkajs `client` of the
 * application's (its own request timeout and retry settings then apply to each send).
 */
export type OutboxKafkaOptions = KafkaConnection;

/**
 * Publishes with one kafkajs producer: acks = all, one request in flight, the Java-compatible
 * default partitioner so key = aggregate id lands where Java clients would put it, and no
 * topic auto-creation (topics are checked against cluster metadata instead).
 *
 * Not kafkajs's idempotent producer, which its documentation calls experimental: when a send
 * fails, it takes back the failed batch's sequence numbers and gives them to the next batch.
 * A send whose reply was lost had been written, so the broker takes the next batch, other
 * messages under the same numbers, for a retry of it (DUPLICATE_SEQUENCE_NUMBER): it
 * acknowledges that batch and drops it. The relay resends failed rows in new batches, so that
 * is a silent loss (test/kafka-outbox-publisher-lost-reply.int-spec.ts). Without it, a lost
 * reply costs a duplicate, which the consumers' inbox absorbs; one request in flight keeps
 * each partition in order.
 */
export class KafkaOutboxPublisher implements OutboxPublisher {
  private producer: Producer;
  private readonly client: Kafka;
  private readonly admin: Admin;
  private readonly producerConnection = new ConnectOnce(() => this.producer.connect());
  private readonly adminConnection: ConnectOnce;
  private readonly listed: ListedTopics;
  private readonly receipts = new PartitionReceipts();

  constructor(
    kafka: OutboxKafkaOptions,
    private readonly tuning: OutboxPublisherTuning,
  ) {
    const client = kafkaClient(kafka, {
      requestTimeout: tuning.requestTimeoutMs,
      retry: { retries: tuning.producerRetries, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
    this.client = client;
    this.producer = this.newProducer();
    this.admin = client.admin();
    this.adminConnection = new ConnectOnce(() => this.admin.connect());
    // A lost connection makes the next call connect again, so the relay recovers by itself.
    this.admin.on(this.admin.events.DISCONNECT, () => this.adminConnection.reset());
    this.listed = new ListedTopics(
      adminTopicListing(this.admin, () => this.adminConnection.connected(), topicRefusalOf),
      tuning.topicCacheMs,
    );
  }

  /** The topics the cluster does not have; one the ACLs deny is not missing (ListedTopics). */
  async missingTopics(topics: string[]): Promise<string[]> {
    return this.listed.missing(topics);
  }

  /**
   * Sends `batches` and resolves once every message is acknowledged. What kafkajs reports as
   * sent but no broker acknowledged (PartitionReceipts) is sent again, up to `producerRetries`
   * times, then the publish fails: the relay retries the rows, never marks them SENT. A topic
   * that is missing or denied rejects with TopicUnavailableError naming it.
   */
  async publish(batches: TopicBatch[]): Promise<void> {
    try {
      await this.publishTogether(batches);
    } catch (error) {
      if (!(error instanceof TopicUnavailableError && error.unattributed && batches.length > 1)) {
        throw error;
      }
      // Kafka's refusal named no topic, and the cluster lists them all (a write the ACLs deny):
      // each topic is sent alone to find which, so one denied topic holds back no other.
      const refused: RefusedTopic[] = [];
      const published: string[] = [];
      for (const batch of batches) {
        try {
          await this.publishTogether([batch]);
          published.push(batch.topic);
        } catch (alone) {
          if (!(alone instanceof TopicUnavailableError)) throw alone;
          refused.push(...alone.topics);
        }
      }
      if (refused.length > 0) throw new TopicUnavailableError(refused, { cause: error, published });
    }
  }

  private async publishTogether(batches: TopicBatch[]): Promise<void> {
    let pending = batches;
    for (let attempt = 0; ; attempt++) {
      pending = this.receipts.unacknowledged(pending, await this.sendOrName(pending));
      if (pending.length === 0) return;
      if (attempt >= this.tuning.producerRetries) {
        const count = pending.reduce((n, b) => n + b.messages.length, 0);
        throw new OutboxError(
          'OUTBOX_SEND_INCOMPLETE',
          `kafkajs resolved the send, but no broker acknowledged ${count} of its messages ` +
            `(partitions that changed leader during its retries), ${attempt + 1} times`,
        );
      }
    }
  }

  /**
   * Sends; a refusal of a topic (kafkajs's metadata or produce error, which names no topic)
   * becomes a TopicUnavailableError naming the topics the cluster's listing lacks, or, when it
   * lists them all (the ACLs deny the write, or a topic was deleted since), every topic sent
   * (`unattributed`: publish then sends each topic alone).
   */
  private async sendOrName(batches: TopicBatch[]): Promise<RecordMetadata[]> {
    try {
      return await this.send(batches);
    } catch (error) {
      const code = topicRefusalOf(error);
      if (!code) throw error;
      const topics = batches.map((b) => b.topic);
      this.listed.forget();
      const missing = await this.missingTopics(topics).catch(() => []);
      if (missing.length > 0) {
        const refused = missing.map((topic) => ({
          topic,
          code: 'UNKNOWN_TOPIC_OR_PARTITION' as const,
        }));
        throw new TopicUnavailableError(refused, { cause: error });
      }
      const refused = topics.map((topic) => ({ topic, code }));
      throw new TopicUnavailableError(refused, { cause: error, unattributed: true });
    }
  }

  private async send(batches: TopicBatch[]): Promise<RecordMetadata[]> {
    await this.producerConnection.connected();
    return this.producer.sendBatch({
      acks: -1,
      timeout: this.tuning.requestTimeoutMs,
      topicMessages: batches.map((b) => ({ topic: b.topic, messages: b.messages })),
    });
  }

  /**
   * Drops the producer: kafkajs rejects the send in flight and makes no further attempt of it;
   * the next publish starts a new producer (a new session, new connections).
   */
  async abort(): Promise<void> {
    const old = this.producer;
    this.producer = this.newProducer();
    this.producerConnection.reset();
    await old.disconnect().catch(() => undefined);
  }

  private newProducer(): Producer {
    const producer = this.client.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: this.receipts.createPartitioner,
      retry: {
        retries: this.tuning.producerRetries,
        initialRetryTime: 100,
        maxRetryTime: 2_000,
      },
    });
    producer.on(producer.events.DISCONNECT, () => {
      if (this.producer === producer) this.producerConnection.reset();
    });
    return producer;
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

/** The default `createPublisher`: KafkaOutboxPublisher. */
export const kafkajsPublisher: OutboxPublisherFactory = (kafka, tuning) =>
  new KafkaOutboxPublisher(kafka, tuning);
