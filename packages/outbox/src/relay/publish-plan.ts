import { rowBytes } from './batch-bytes';
import { aggregateRef, ClaimedRow } from '../store/outbox-row';
import { OutboxMessage, TopicBatch } from '../publisher/outbox-publisher';
import { DeadEventPolicy } from './outbox-relay.options';

/** A claimed batch split into what to send, what waits for its topic, and what cannot be published at all. */
export interface PublishPlan {
  send: Array<{ row: ClaimedRow; topic: string; message: OutboxMessage }>;
  /** Rows that can never be published (DEAD now, with the reason). */
  poison: Array<{ row: ClaimedRow; reason: string }>;
  /** Later rows of an aggregate whose earlier row is poison, under the 'block' policy. */
  blocked: ClaimedRow[];
  /**
   * Rows whose topic the cluster lacks (and the later rows of their aggregates): an
   * operational fault, not a bad row. They wait for the topic, keeping their attempts.
   */
  waiting: Array<{ row: ClaimedRow; topic: string }>;
}

/**
 * Maps rows (already in send order) to messages and sorts out the ones that cannot be
 * published now: a topic the cluster lacks (the row waits), a topic the resolver cannot name or
 * a message over the size limit (poison). Under 'block', the later rows of a poisoned
 * aggregate are held back, not sent; those of a waiting aggregate always wait with it.
 */
export function planPublish(
  rows: ClaimedRow[],
  topicOf: (row: ClaimedRow) => string,
  missingTopics: ReadonlySet<string>,
  limits: { maxMessageBytes: number; deadPolicy: DeadEventPolicy },
): PublishPlan {
  const plan: PublishPlan = { send: [], poison: [], blocked: [], waiting: [] };
  const poisoned = new Set<string>();
  const waiting = new Map<string, string>();
  for (const row of rows) {
    const ref = aggregateRef(row);
    if (poisoned.has(ref) && limits.deadPolicy === 'block') {
      plan.blocked.push(row);
      continue;
    }
    const message = { key: row.aggregateId, value: row.payload, headers: row.headers };
    // A row no topic can ever take is poison first: waiting for its topic would not save it.
    const reason = waiting.has(ref) ? undefined : rejectionOf(row, topicOf, limits.maxMessageBytes);
    const waitsFor = reason
      ? undefined
      : (waiting.get(ref) ?? missingTopicOf(row, topicOf, missingTopics));
    if (waitsFor !== undefined) {
      plan.waiting.push({ row, topic: waitsFor });
      waiting.set(ref, waitsFor);
    } else if (reason) {
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

function missingTopicOf(
  row: ClaimedRow,
  topicOf: (row: ClaimedRow) => string,
  missingTopics: ReadonlySet<string>,
): string | undefined {
  try {
    const topic = topicOf(row);
    return missingTopics.has(topic) ? topic : undefined;
  } catch {
    return undefined; // rejectionOf names it
  }
}

function rejectionOf(
  row: ClaimedRow,
  topicOf: (row: ClaimedRow) => string,
  maxMessageBytes: number,
): string | undefined {
  try {
    topicOf(row);
  } catch (error) {
    return `no topic for aggregate type ${row.aggregateType}: ${(error as Error).message}`;
  }
  const bytes = rowBytes(row);
  if (bytes > maxMessageBytes) {
    return `message is ${bytes} bytes, over the ${maxMessageBytes}-byte limit`;
  }
  return undefined;
}
