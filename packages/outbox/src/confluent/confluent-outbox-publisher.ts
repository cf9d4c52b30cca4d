import { KafkaJS } from '@confluentinc/kafka-javascript';
import { ConnectOnce } from '../publisher/connect-once';
import { OutboxKafkaOptions } from '../publisher/kafka-outbox-publisher';
import { adminTopicListing, ListedTopics } from '../publisher/listed-topics';
import { OutboxPublisher, TopicBatch } from '../publisher/outbox-publisher';
import { OutboxPublisherTuning } from '../publisher/outbox-publisher-factory';
import { RefusedTopic, TopicUnavailableError } from '../publisher/topic-unavailable';
import { confluentClientConfig } from './confluent-client-config';
import { confluentTopicRefusalOf } from './confluent-topic-refusal';

/**
 * Publishes with @confluentinc/kafka-javascript (librdkafka underneath): the idempotent
 * producer, acks = all, up to 5 requests in flight. librdkafka numbers each partition's
 * messages and keeps their order across retries with 5 in flight, and a send whose reply was
 * lost costs neither a loss nor a duplicate: it retries the same batch under the same sequence
 * numbers, and when a message times out it bumps the producer epoch before it sends the next
 * (KIP-360), so no later batch is taken for a retry of it (kafkajs's idempotent producer does
 * that, and KafkaOutboxPublisher runs without it for this reason).
 *
 * Keys land where KafkaOutboxPublisher (kafkajs's Java-compatible partitioner) puts them:
 * librdkafka's `murmur2_random` is the same murmur2 of the key (its default, consistent_random,
 * is a CRC32). Topics are never auto-created; they are checked against the cluster's listing.
 */
export class ConfluentOutboxPublisher implements OutboxPublisher {
  private readonly client: KafkaJS.Kafka;
  private readonly admin: KafkaJS.Admin;
  private producer: KafkaJS.Producer;
  private readonly producerConnection = new ConnectOnce(() => this.producer.connect());
  private readonly adminConnection: ConnectOnce;
  private readonly listed: ListedTopics;
  /** Rejects the publishes of the current producer when abort() drops it. */
  private abandon: (error: Error) => void = () => undefined;
  private abandoned: Promise<never> = this.nextAbandoned();

  constructor(
    kafka: OutboxKafkaOptions,
    private readonly tuning: OutboxPublisherTuning,
  ) {
    this.client = new KafkaJS.Kafka(confluentClientConfig(kafka));
    this.admin = this.client.admin();
    this.adminConnection = new ConnectOnce(() => this.admin.connect());
    this.listed = new ListedTopics(
      adminTopicListing(
        this.admin,
        () => this.adminConnection.connected(),
        confluentTopicRefusalOf,
      ),
      tuning.topicCacheMs,
    );
    this.producer = this.newProducer();
  }

  /** The topics the cluster does not have; one the ACLs deny is not missing (ListedTopics). */
  async missingTopics(topics: string[]): Promise<string[]> {
    return this.listed.missing(topics);
  }

  /**
   * Sends `batches` and resolves once librdkafka reports every message delivered. Each topic's
   * messages report on their own, so a refused topic is named by its own reports: the others'
   * are still awaited, and they are `published` in the TopicUnavailableError.
   */
  async publish(batches: TopicBatch[]): Promise<void> {
    await Promise.race([this.producerConnection.connected(), this.abandoned]);
    const producer = this.producer;
    const sends = batches.map((batch) =>
      producer.send({
        topic: batch.topic,
        // send() rewrites the messages it is given (Buffers, librdkafka's header shape).
        messages: batch.messages.map((m) => ({
          key: m.key,
          value: m.value,
          headers: { ...m.headers },
        })),
      }),
    );
    const outcomes = await Promise.race([Promise.allSettled(sends), this.abandoned]);
    const refused: RefusedTopic[] = [];
    const published: string[] = [];
    let failure: unknown;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        published.push(batches[i].topic);
        return;
      }
      const code = confluentTopicRefusalOf(outcome.reason);
      if (code) refused.push({ topic: batches[i].topic, code });
      else failure ??= outcome.reason;
    });
    if (failure !== undefined) throw failure;
    if (refused.length > 0) {
      this.listed.forget();
      throw new TopicUnavailableError(refused, { cause: outcomes, published });
    }
  }

  /**
   * Drops the producer: the publish in flight rejects now, and the next publish starts a new
   * producer (a new producer id, new connections). librdkafka may still deliver what the old
   * one had sent before it closes; the relay counts those rows unknown and sends them again.
   */
  async abort(): Promise<void> {
    const old = this.producer;
    this.abandon(new Error('the publish was aborted: its lease was lost'));
    this.abandoned = this.nextAbandoned();
    this.producer = this.newProducer();
    this.producerConnection.reset();
    await old.disconnect().catch(() => undefined);
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }

  private newProducer(): KafkaJS.Producer {
    // librdkafka's own properties rather than the kafkajs-shaped block: that block would also
    // set the partitioner, and does not take message.timeout.ms.
    return this.client.producer({
      'enable.idempotence': true,
      'max.in.flight.requests.per.connection': 5,
      acks: -1,
      partitioner: 'murmur2_random',
      'allow.auto.create.topics': false,
      'request.timeout.ms': this.tuning.requestTimeoutMs,
      // A send's whole life, retries included, as the kafkajs path bounds it (the relay's lease
      // outlasts it: OutboxRelayOptions checks leaseMs against the same product).
      'message.timeout.ms': this.tuning.requestTimeoutMs * (this.tuning.producerRetries + 1),
      // A topic the cluster lacks fails its messages after this, not after librdkafka's 30 s.
      'topic.metadata.propagation.max.ms': Math.min(this.tuning.requestTimeoutMs, 30_000),
      // A broker back from an outage is reached within a second, not after librdkafka's
      // backoff has grown to 10 s: the relay's next publish should find it.
      'reconnect.backoff.max.ms': 1_000,
      // The relay hands over a whole batch at once: nothing more is coming to wait for.
      'linger.ms': 0,
    });
  }

  private nextAbandoned(): Promise<never> {
    const abandoned = new Promise<never>((_, reject) => (this.abandon = reject));
    abandoned.catch(() => undefined); // rejected only while a publish races it
    return abandoned;
  }
}
