import { EventHeader, topicRanges } from '@outbox-inbox/messaging';
import { DeadLetterHeader } from '@outbox-inbox/inbox';
import { streamEvents } from '../read/event-stream';
import { CheckContext } from './check-context';

/**
 * What one consumer dead-lettered: by event key, and by the position of the source message;
 * and the event keys an operator replayed to it (on its retry topic).
 */
export interface DeadLetters {
  keys: Set<string>;
  positions: Set<string>;
  replayed: Set<string>;
}

/**
 * Reads a consumer's dead-letter topic (a shared one is filtered by consumer). It is held in
 * memory: a DLQ holds what failed, which an operator must keep small.
 */
export async function readDeadLetters(
  context: CheckContext,
  topic: string,
  consumer: string,
  retryTopic?: string,
): Promise<DeadLetters> {
  const admin = context.kafka.admin();
  await admin.connect();
  const topics = retryTopic ? [topic, retryTopic] : [topic];
  const ranges = await topicRanges(admin, topics).finally(() => admin.disconnect());
  const dead: DeadLetters = { keys: new Set(), positions: new Set(), replayed: new Set() };
  if (retryTopic)
    await streamEvents(context.kafka, retryTopic, ranges.get(retryTopic) ?? [], async (_, ms) => {
      for (const { headers: h } of ms)
        if (h[EventHeader.eventKey]) dead.replayed.add(h[EventHeader.eventKey]);
    });
  await streamEvents(context.kafka, topic, ranges.get(topic) ?? [], async (_, messages) => {
    for (const { headers: h } of messages) {
      if ((h[DeadLetterHeader.consumer] ?? consumer) !== consumer) continue;
      const key = h[EventHeader.eventKey];
      if (key) dead.keys.add(key);
      dead.positions.add(
        `${h[DeadLetterHeader.sourceTopic]}:${h[DeadLetterHeader.sourcePartition]}:${h[DeadLetterHeader.sourceOffset]}`,
      );
    }
  });
  return dead;
}
