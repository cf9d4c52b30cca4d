import { EventHeader, topicRanges } from '@outbox-inbox/messaging';
import { str } from '../read/database-snapshot';
import { ConsumerState } from '../read/deployment-snapshot';
import { EventMessage, streamEvents } from '../read/event-stream';
import { CheckContext } from './check-context';
import { readDeadLetters } from './dead-letters';

/**
 * A consumer's retry topic holds replays of its dead letters, read by its group alone. A
 * replay its group has not committed past, and that is neither recorded in its inbox nor
 * dead-lettered again (both happen before the offset commit), is in flight: listed, and with
 * --quiescent a violation. The event it carries is accounted for by its dead letter until
 * then. A retry topic that does not exist holds nothing.
 */
export async function replayPass(context: CheckContext): Promise<void> {
  for (const consumer of context.deployment.consumers) {
    const topic = consumer.retryTopic;
    if (topic === undefined) continue;
    const admin = context.kafka.admin();
    await admin.connect();
    const ranges = await topicRanges(admin, [topic]).finally(() => admin.disconnect());
    const committed = context.committed.get(consumer.name);
    const pending = (ranges.get(topic) ?? []).filter(
      (r) => (committed?.get(`${topic}:${r.partition}`) ?? r.low) < r.high,
    );
    if (pending.length === 0) continue;
    const dead = await readDeadLetters(context, consumer.deadLetterTopic, consumer.name);
    await streamEvents(context.kafka, topic, pending, async (partition, messages) => {
      const from = committed?.get(`${topic}:${partition}`) ?? 0n;
      const unconsumed = messages.filter((m) => m.offset >= from);
      const recorded = await recordedKeys(consumer, unconsumed);
      for (const m of unconsumed) {
        const key = m.headers[EventHeader.eventKey];
        if (key && (recorded.has(key) || dead.keys.has(key))) continue;
        if (dead.positions.has(`${topic}:${partition}:${m.offset}`)) continue;
        const id = `${consumer.name} ${key ?? `${topic}:${partition}:${m.offset}`} (replay)`;
        context.findings.list('inFlightEvents', id);
        if (context.quiescent) context.findings.violate('nothing-in-flight', id);
      }
    });
  }
}

/** The event keys among `messages` that the consumer's inbox recorded. */
async function recordedKeys(
  consumer: ConsumerState,
  messages: EventMessage[],
): Promise<Set<string>> {
  const keys = messages.map((m) => m.headers[EventHeader.eventKey]).filter(Boolean);
  if (keys.length === 0) return new Set();
  const rows = await consumer.db.query(
    'SELECT event_key FROM t_inbox WHERE consumer = ? AND event_key IN (?)',
    [consumer.name, keys],
  );
  return new Set(rows.map((r) => str(r.event_key)));
}
