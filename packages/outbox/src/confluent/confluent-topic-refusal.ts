import { TopicRefusalCode } from '../publisher/topic-unavailable';

/**
 * librdkafka's error codes for a topic this client cannot write, as TOPIC_REFUSAL_CODES names
 * them: the broker's UNKNOWN_TOPIC_OR_PART (3) and TOPIC_AUTHORIZATION_FAILED (29), and the
 * client's own ERR__UNKNOWN_TOPIC (-188), raised when the cluster's metadata lacks the topic.
 */
const REFUSALS: ReadonlyMap<number, TopicRefusalCode> = new Map([
  [3, 'UNKNOWN_TOPIC_OR_PARTITION'],
  [-188, 'UNKNOWN_TOPIC_OR_PARTITION'],
  [29, 'TOPIC_AUTHORIZATION_FAILED'],
]);

/**
 * The topic refusal a @confluentinc/kafka-javascript error carries: its numeric librdkafka
 * `code`, on the error or in its cause chain.
 */
export function confluentTopicRefusalOf(error: unknown): TopicRefusalCode | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    depth++
  ) {
    if (typeof e.code === 'number' && REFUSALS.has(e.code)) return REFUSALS.get(e.code);
    e = e.cause as typeof e;
  }
  return undefined;
}
