import { consumerChannels, topicForAggregate } from '@app/trading-events';

/** The stack's inbox consumers, whose dead-letter and retry topics it creates. */
export const STACK_CONSUMERS = ['fulfillment-service', 'accounting-service'] as const;

/** Partition counts: they bound how many consumer instances can share a topic. */
export function stackTopics(prefix: string): Record<string, number> {
  const topics: Record<string, number> = {
    [topicForAggregate('Order', prefix)]: 6,
    [topicForAggregate('Fulfillment', prefix)]: 6,
  };
  for (const consumer of STACK_CONSUMERS) {
    const { deadLetterTopic, retryTopic } = consumerChannels(consumer, prefix);
    topics[deadLetterTopic] = 1;
    topics[retryTopic] = 1;
  }
  return topics;
}
