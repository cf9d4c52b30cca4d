import { rowBytes } from './batch-bytes';
import { aggregateRef, ClaimedRow } from '../store/outbox-row';
import { OutboxMessage, TopicBatch } from '../publisher/outbox-publisher';
import { DeadEventPolicy } from './outbox-relay.options';

/** A claimed batch split into what to send and what cannot be published at all. */
export interface PublishPlan {
  send: Array<{ row: ClaimedRow; topic: string; message: OutboxMessage }>;
  /** Rows that can never be published (DEAD now, with the reason). */
  poison: Array<{ row: ClaimedRow; reason: string }>;
  /** Later rows of an aggregate whose earlier row is poison, under the 'block' policy. */
  blocked: ClaimedRow[];
}

/**
 * Maps rows (already in send order) to messages and sorts out the ones that cannot be
 * published: a topic the resolver cannot name or the cluster lacks, a message over the size
 * limit. Under 'block', the later rows of such an aggregate are held back, not sent.
 */
export function planPublish(
  rows: ClaimedRow[],
  topicOf: (row: ClaimedRow) => string,
  missingTopics: ReadonlySet<string>,
  limits: { maxMessageBytes: number; deadPolicy: DeadEventPolicy },
): PublishPlan {
  const plan: PublishPlan = { send: [], poison: [], blocked: [] };
  const poisoned = new Set<string>();
  for (const row of rows) {
    const ref = aggregateRef(row);
    if (poisoned.has(ref) && limits.deadPolicy === 'block') {
      plan.blocked.push(row);
      continue;
    }
    const message = { key: row.aggregateId, value: row.payload, headers: row.headers };
    const reason = rejectionOf(row, topicOf, missingTopics, limits.maxMessageBytes);
    if (reason) {
      plan.poison.push({ row, reason });
      poisoned.add(ref);
    } else {
      plan.send.push({ row, topic: topicOf(row), message });
    }
  }
  return plan;
}

/** Groups messages by topic, keeping their order. */
export function toTopicBatches(send: PublishPlan['send']): TopicBatch[] {
  const byTopic = new Map<string, OutboxMessage[]>();
  for (const { topic, message } of send) {
    const messages = byTopic.get(topic);
    if (messages) messages.push(message);
    else byTopic.set(topic, [message]);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function rejectionOf(
  row: ClaimedRow,
  topicOf: (row: ClaimedRow) => string,
  missingTopics: ReadonlySet<string>,
  maxMessageBytes: number,
): string | undefined {
  let topic: string;
  try {
    topic = topicOf(row);
  } catch (error) {
    return `no topic for aggregate type ${row.aggregateType}: ${(error as Error).message}`;
  }
  if (missingTopics.has(topic)) return `topic ${topic} does not exist`;
  const bytes = rowBytes(row);
  if (bytes > maxMessageBytes) {
    return `message is ${bytes} bytes, over the ${maxMessageBytes}-byte limit`;
  }
  return undefined;
}
