/** One Kafka message built from an outbox row. */
export interface OutboxMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Messages for one topic, in send order. */
export interface TopicBatch {
  topic: string;
  messages: OutboxMessage[];
}

/** Where the relay publishes; KafkaOutboxPublisher in production, a stand-in in tests. */
export interface OutboxPublisher {
  /** Topics among `topics` that the cluster does not have (it cannot create them). */
  missingTopics(topics: string[]): Promise<string[]>;
  /**
   * One awaited request for the whole batch; resolves when every message is acknowledged.
   * Rejects with TopicUnavailableError when the batch failed because a topic is missing or
   * denied: the relay then holds those rows without counting an attempt.
   */
  publish(batches: TopicBatch[]): Promise<void>;
  /**
   * Abandons the sends in flight (their lease is lost): the pending `publish` rejects and no
   * further attempt of it is made. Optional; the next `publish` starts afresh.
   */
  abort?(): Promise<void>;
  disconnect(): Promise<void>;
}
