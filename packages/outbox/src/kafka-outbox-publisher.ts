import { kafkaClient, KafkaConnection } from '@outbox-inbox/messaging';
import { Admin, Kafka, Producer, RecordMetadata } from 'kafkajs';
import { OutboxError } from './outbox.errors';
import { OutboxPublisher, TopicBatch } from './outbox-publisher';
import { PartitionReceipts } from './partition-receipts';

/**
 * How the relay reaches Kafka: brokers and clientId (ssl, sasl), or a kafkajs `client` of the
 * application's (its own request timeout and retry settings then apply to each send).
 */
export type OutboxKafkaOptions = KafkaConnection;

/**
 * Errors by which the broker refuses a producer's idempotent session (its id, epoch or
 * sequence numbers), which kafkajs neither retries nor repairs.
 */
const BROKEN_SESSION_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
]);

/** True when `error`, or an error it wraps, is one of BROKEN_SESSION_ERRORS. */
function brokenIdempotentSession(error: unknown): boolean {
  for (let e = error; e instanceof Error;) {
    if (BROKEN_SESSION_ERRORS.has((e as { type?: string }).type ?? '')) return true;
    const next = (e as { originalError?: unknown }).originalError ?? e.cause;
    if (next === e) return false;
    e = next;
  }
  return false;
}

/**
 * Publishes with one kafkajs idempotent producer: acks = all, one request in flight (kafkajs
 * drops idempotent sends when requests pile up, kafkajs issue 1005), the Java-compatible
 * default partitioner so key = aggregate id lands where Java clients would put it, and no
 * topic auto-creation (topics are checked against cluster metadata instead).
 */
export class KafkaOutboxPublisher implements OutboxPublisher {
  private producer: Producer;
  private readonly client: Kafka;
  private readonly admin: Admin;
  private producerReady?: Promise<void>;
  private adminReady?: Promise<void>;
  private knownTopics = new Set<string>();
  private knownAt = 0;
  private readonly receipts = new PartitionReceipts();

  constructor(
    kafka: OutboxKafkaOptions,
    private readonly tuning: {
      requestTimeoutMs: number;
      producerRetries: number;
      topicCacheMs: number;
    },
  ) {
    const client = kafkaClient(kafka, {
      requestTimeout: tuning.requestTimeoutMs,
      retry: { retries: tuning.producerRetries, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
    this.client = client;
    this.producer = this.newProducer();
    this.admin = client.admin();
    // A lost connection makes the next call connect again, so the relay recovers by itself.
    this.admin.on(this.admin.events.DISCONNECT, () => (this.adminReady = undefined));
  }

  async missingTopics(topics: string[]): Promise<string[]> {
    const stale = Date.now() - this.knownAt > this.tuning.topicCacheMs;
    if (stale || topics.some((t) => !this.knownTopics.has(t))) await this.refreshTopics();
    return topics.filter((t) => !this.knownTopics.has(t));
  }

  /**
   * Sends `batches` and resolves once every message is acknowledged. What kafkajs reports as
   * sent but no broker acknowledged (PartitionReceipts) is sent again, up to `producerRetries`
   * times, then the publish fails: the relay retries the rows, never marks them SENT.
   */
  async publish(batches: TopicBatch[]): Promise<void> {
    let pending = batches;
    for (let attempt = 0; ; attempt++) {
      pending = this.receipts.unacknowledged(pending, await this.send(pending));
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

  private async send(batches: TopicBatch[]): Promise<RecordMetadata[]> {
    await this.connected('producer');
    try {
      return await this.producer.sendBatch({
        acks: -1,
        timeout: this.tuning.requestTimeoutMs,
        topicMessages: batches.map((b) => ({ topic: b.topic, messages: b.messages })),
      });
    } catch (error) {
      // kafkajs keeps a producer whose idempotent session the broker refuses, and every later
      // send fails the same way: seen after a whole-cluster crash, where the relay answered
      // OUT_OF_ORDER_SEQUENCE_NUMBER for minutes. A new producer is a new session.
      if (brokenIdempotentSession(error)) await this.abort();
      throw error;
    }
  }

  /**
   * Drops the producer: kafkajs rejects the send in flight and makes no further attempt of it;
   * the next publish starts a new producer (a new session, new connections).
   */
  async abort(): Promise<void> {
    const old = this.producer;
    this.producer = this.newProducer();
    this.producerReady = undefined;
    await old.disconnect().catch(() => undefined);
  }

  private newProducer(): Producer {
    const producer = this.client.producer({
      idempotent: true,
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
      if (this.producer === producer) this.producerReady = undefined;
    });
    return producer;
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }

  private async refreshTopics(): Promise<void> {
    await this.connected('admin');
    this.knownTopics = new Set(await this.admin.listTopics());
    this.knownAt = Date.now();
  }

  private async connected(which: 'producer' | 'admin'): Promise<void> {
    const ready = which === 'producer' ? this.producerReady : this.adminReady;
    if (ready) return ready;
    const connecting = (which === 'producer' ? this.producer : this.admin).connect();
    if (which === 'producer') this.producerReady = connecting;
    else this.adminReady = connecting;
    try {
      await connecting;
    } catch (error) {
      if (which === 'producer') this.producerReady = undefined;
      else this.adminReady = undefined;
      throw error;
    }
  }
}
