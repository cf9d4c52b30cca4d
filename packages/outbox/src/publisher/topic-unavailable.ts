import { OutboxError } from '../outbox.errors';

/**
 * Kafka's answers for a topic this client cannot write: it does not exist (and is not
 * auto-created), or the ACLs deny it. Operational faults, fixed by creating the topic or
 * granting the ACL, never by the message: the relay holds the rows, it does not fail them.
 */
export const TOPIC_REFUSAL_CODES = [
  'UNKNOWN_TOPIC_OR_PARTITION',
  'TOPIC_AUTHORIZATION_FAILED',
] as const;

/** One of TOPIC_REFUSAL_CODES. */
export type TopicRefusalCode = (typeof TOPIC_REFUSAL_CODES)[number];

/** A topic a send could not reach, with the broker's code. */
export interface RefusedTopic {
  topic: string;
  code: TopicRefusalCode;
}

/**
 * A publish refused because of its topics, not its messages: `topics` names them. An
 * OutboxPublisher rejects with it so the relay holds those rows without using up their attempts;
 * the messages of the `published` topics were acknowledged (the relay marks them SENT).
 */
export class TopicUnavailableError extends OutboxError {
  /** Topics of the publish whose messages were all acknowledged. */
  readonly published: string[];
  /** Kafka's answer named no topic: `topics` are all the topics of the send. */
  readonly unattributed: boolean;

  constructor(
    readonly topics: RefusedTopic[],
    options: { cause?: unknown; published?: string[]; unattributed?: boolean } = {},
  ) {
    super('OUTBOX_TOPIC_UNAVAILABLE', topics.map((t) => `topic ${t.topic}: ${t.code}`).join('; '), {
      cause: options.cause,
    });
    this.published = options.published ?? [];
    this.unattributed = options.unattributed ?? false;
  }
}

/**
 * The topic refusal an error carries: kafkajs's protocol error `type`, on the error or anywhere
 * in its cause chain (kafkajs wraps it in KafkaJSNumberOfRetriesExceeded once retries run out).
 */
export function topicRefusalOf(error: unknown): TopicRefusalCode | undefined {
  for (
    let e = error as { type?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    depth++
  ) {
    const type = e.type;
    if (TOPIC_REFUSAL_CODES.includes(type as TopicRefusalCode)) return type as TopicRefusalCode;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** What an operator does about a refused topic. */
export function topicRemedy(topic: string, code: TopicRefusalCode): string {
  return code === 'TOPIC_AUTHORIZATION_FAILED'
    ? `grant this relay's principal WRITE (and DESCRIBE) on topic ${topic}`
    : `create topic ${topic} (the relay never creates topics)`;
}
