import { OutboxMessage, OutboxPublisher, TopicBatch } from '../publisher/outbox-publisher';

/** What a test may put around each send of the twin: delay it, hold it, fail it, observe it. */
export type AroundSend = (batches: TopicBatch[], deliver: () => Promise<void>) => Promise<void>;

/** Options of InMemoryOutboxPublisher. */
export interface InMemoryOutboxPublisherOptions {
  /** Topics that exist; default: every topic does. */
  topics?: string[];
  /** Runs each send; `deliver` records the batches (and forwards them to `forwardTo`). */
  around?: AroundSend;
  /** A real publisher to send to as well (the twin then records what it acknowledged). */
  forwardTo?: OutboxPublisher;
}

/**
 * The in-memory twin of the outbox publisher port: it keeps every acknowledged message by
 * topic, in send order. A send rejects when `around` throws (or `forwardTo` rejects), and is
 * then not recorded: a failed publish is never reported as a success. It passes
 * runOutboxPublisherContract without fault features.
 */
export class InMemoryOutboxPublisher implements OutboxPublisher {
  /** Every acknowledged batch, in the order the sends completed. */
  readonly published: TopicBatch[] = [];
  private sends = 0;
  private aborts = 0;

  constructor(private readonly options: InMemoryOutboxPublisherOptions = {}) {}

  /** Sends started and not yet settled. */
  get inFlight(): number {
    return this.sends;
  }

  /** How often the relay abandoned a send (its lease was lost). */
  get abortCount(): number {
    return this.aborts;
  }

  /** The acknowledged messages, of one topic or of all. */
  messages(topic?: string): OutboxMessage[] {
    return this.published
      .filter((batch) => topic === undefined || batch.topic === topic)
      .flatMap((batch) => batch.messages);
  }

  async missingTopics(topics: string[]): Promise<string[]> {
    if (this.options.forwardTo) return this.options.forwardTo.missingTopics(topics);
    const known = this.options.topics;
    return known ? topics.filter((topic) => !known.includes(topic)) : [];
  }

  async publish(batches: TopicBatch[]): Promise<void> {
    const copy = batches.map((b) => ({ topic: b.topic, messages: [...b.messages] }));
    const deliver = async () => {
      const missing = await this.missingTopics(copy.map((b) => b.topic));
      if (missing.length > 0 && !this.options.forwardTo) {
        throw new Error(`unknown topic(s): ${missing.join(', ')}`);
      }
      await this.options.forwardTo?.publish(copy);
      this.published.push(...copy);
    };
    this.sends += 1;
    try {
      await (this.options.around ? this.options.around(copy, deliver) : deliver());
    } finally {
      this.sends -= 1;
    }
  }

  async abort(): Promise<void> {
    this.aborts += 1;
    await this.options.forwardTo?.abort?.();
  }

  async disconnect(): Promise<void> {
    await this.options.forwardTo?.disconnect();
  }
}
