import { EventHeader } from '@outbox-inbox/messaging';
import { TRADING_EVENTS } from '@app/trading-events';
import { num, str } from '../read/database-snapshot';
import { ConsumerState } from '../read/deployment-snapshot';
import { KeyHashSet } from '../read/key-hash-set';
import { EventMessage, streamEvents } from '../read/event-stream';
import { CheckContext } from './check-context';
import { DeadLetters, readDeadLetters } from './dead-letters';

const CHAIN_EVENTS = new Set<string>(TRADING_EVENTS.map((e) => e.eventType));

/**
 * Streams each event topic once. Per batch: its event keys go to the topic's key set (for the
 * outbox pass); every message has its outbox row or, once retention pruned the row, an event
 * its aggregate recorded (`topic-message-has-outbox-row`); and, per consumer of the topic,
 * every message its group committed past is recorded, parked or dead-lettered
 * (`every-event-accounted-for`), or unconsumed (in flight).
 */
export async function topicPass(context: CheckContext): Promise<void> {
  const { targets } = context;
  const deadLetters = new Map<string, DeadLetters>();
  for (const c of targets.consumers)
    deadLetters.set(
      c.name,
      await readDeadLetters(context, c.deadLetterTopic, c.name, c.retryTopic),
    );
  for (const topic of [targets.topics.order, targets.topics.fulfillment]) {
    const keys = new KeyHashSet();
    context.topicKeys.set(topic, keys);
    const readers = context.deployment.consumers.filter((c) => c.topics.includes(topic));
    const seenRetained = new Set<string>();
    await streamEvents(
      context.kafka,
      topic,
      context.rangesAfter.get(topic) ?? [],
      async (p, ms) => {
        context.findings.observations.topicMessages += ms.length;
        if (!context.firstRetained.has(`${topic}:${p}`))
          context.firstRetained.set(`${topic}:${p}`, ms[0].timestamp);
        for (const m of ms) {
          const key = m.headers[EventHeader.eventKey];
          if (key) keys.add(key);
        }
        await messagesHaveOutboxRows(context, topic, p, ms);
        for (const consumer of readers)
          await eventsAccountedFor(context, consumer, topic, p, ms, {
            dead: deadLetters.get(consumer.name)!,
            seenRetained,
          });
      },
    );
    context.findings.observations.duplicateDeliveries += keys.duplicates();
  }
}

async function messagesHaveOutboxRows(
  context: CheckContext,
  topic: string,
  partition: number,
  messages: EventMessage[],
): Promise<void> {
  const { deployment, findings, targets } = context;
  const before = context.rangesBefore.get(topic)?.find((r) => r.partition === partition);
  // Messages produced after the snapshots opened may come from rows the snapshots cannot see.
  // A message of a type the chain does not have is foreign: it has no outbox row here, and the
  // consumers record it in their inbox and skip it (tolerant reader), so it is not checked.
  const checked = messages.filter(
    (m) =>
      m.headers[EventHeader.eventKey] &&
      CHAIN_EVENTS.has(m.headers[EventHeader.eventType] ?? '') &&
      before &&
      m.offset < before.high,
  );
  if (checked.length === 0) return;
  const isOrder = topic === targets.topics.order;
  const db = isOrder ? deployment.order : deployment.fulfillment;
  const keys = checked.map((m) => m.headers[EventHeader.eventKey]);
  const rows = await db.query('SELECT event_key FROM t_outbox WHERE event_key IN (?)', [keys]);
  const withRow = new Set(rows.map((r) => str(r.event_key)));
  const pruned = checked.filter((m) => !withRow.has(m.headers[EventHeader.eventKey]));
  if (pruned.length === 0) return;
  const recorded = await recordedEvents(context, isOrder, pruned);
  for (const m of pruned) {
    const key = m.headers[EventHeader.eventKey];
    if (recorded.has(key))
      findings.notCheckable('topic-message-has-outbox-row', 'outbox row pruned by retention');
    else
      findings.violate(
        'topic-message-has-outbox-row',
        `${topic}:${partition}:${m.offset} ${key}: no outbox row, no such event recorded`,
      );
  }
}

/** The keys among `messages` that their aggregate's durable state records as its events. */
async function recordedEvents(
  { deployment }: CheckContext,
  isOrder: boolean,
  messages: EventMessage[],
): Promise<Set<string>> {
  const ids = [...new Set(messages.map((m) => m.headers[EventHeader.aggregateId] ?? ''))];
  const recorded = new Set<string>();
  if (isOrder) {
    const rows = await deployment.order.query(
      'SELECT order_id, version, event_type FROM t_order_transition WHERE order_id IN (?)',
      [ids],
    );
    for (const r of rows) recorded.add(`${str(r.event_type)}:${str(r.order_id)}:${num(r.version)}`);
  } else {
    const rows = await deployment.fulfillment.query(
      'SELECT id, event_version FROM t_fulfillment WHERE id IN (?)',
      [ids],
    );
    for (const r of rows)
      ['FulfillmentDone', 'FulfillmentReverted']
        .slice(0, num(r.event_version))
        .forEach((type, i) => recorded.add(`${type}:${str(r.id)}:${i + 1}`));
  }
  return recorded;
}

/**
 * Where each message stands for one consumer: recorded in its inbox, parked, dead-lettered,
 * not yet consumed, or lost. A message without an inbox row is judged by the consumer's gate
 * (kept forever): a gate past its version took it in (so a missing row was pruned, or lost
 * if rows after it in the partition were kept); a gate short of it with the group committed
 * past and no dead letter lost it, however old.
 */
async function eventsAccountedFor(
  { findings, quiescent, committed }: CheckContext,
  consumer: ConsumerState,
  topic: string,
  partition: number,
  messages: EventMessage[],
  state: { dead: DeadLetters; seenRetained: Set<string> },
): Promise<void> {
  const keys = messages.map((m) => m.headers[EventHeader.eventKey]).filter(Boolean);
  const outcomes = new Map<string, string>();
  if (keys.length > 0)
    for (const r of await consumer.db.query(
      'SELECT event_key, outcome FROM t_inbox WHERE consumer = ? AND event_key IN (?)',
      [consumer.name, keys],
    ))
      outcomes.set(str(r.event_key), str(r.outcome));
  const unrecorded = messages.filter((m) => !outcomes.has(m.headers[EventHeader.eventKey] ?? ''));
  const { gates, skipped } = await gatesOf(consumer, unrecorded);
  const position = `${consumer.name}:${topic}:${partition}`;
  const committedAt = committed.get(consumer.name)?.get(`${topic}:${partition}`);
  const listed = new Set<string>();
  const list = (
    observation: 'parkedEvents' | 'deadLetteredEvents' | 'inFlightEvents',
    id: string,
  ) => {
    if (!listed.has(`${observation} ${id}`)) findings.list(observation, `${consumer.name} ${id}`);
    listed.add(`${observation} ${id}`);
  };
  for (const m of messages) {
    const key = m.headers[EventHeader.eventKey];
    const id = key ?? `${topic}:${partition}:${m.offset}`;
    const outcome = key ? outcomes.get(key) : undefined;
    // The inbox takes a partition in offset order and prunes oldest first: past the first
    // message with a retained row, a missing row cannot have been pruned.
    if (outcome !== undefined) state.seenRetained.add(position);
    if (outcome === 'parked') list('parkedEvents', id);
    if (outcome !== undefined) continue;
    const version = Number(m.headers[EventHeader.aggregateVersion]);
    const aggregate = `${m.headers[EventHeader.aggregateType]}:${m.headers[EventHeader.aggregateId]}`;
    const gate = gates.get(aggregate);
    // Dead-lettered at its position (or under its key): accounted for, whatever the gate says
    // (an envelope the consumer refused may name a version its gate has passed). Once an
    // operator replayed it and the gate passed its version, it was applied: the gate judges it.
    const replayedAndApplied =
      key !== undefined && state.dead.replayed.has(key) && gate !== undefined && gate >= version;
    if (
      !replayedAndApplied &&
      ((key && state.dead.keys.has(key)) ||
        state.dead.positions.has(`${topic}:${partition}:${m.offset}`))
    ) {
      list('deadLetteredEvents', id);
      continue;
    }
    // Skipped on purpose by an operator (audited): the gate passed it with no inbox row.
    if (key && gate !== undefined && gate >= version && skipped.has(`${aggregate}@${version}`))
      continue;
    if (key && gate !== undefined && gate >= version) {
      if (consumer.prunedBefore !== null && !state.seenRetained.has(position))
        findings.notCheckable(
          'every-event-accounted-for',
          'inbox row pruned (below the prune watermark)',
        );
      else
        findings.violate(
          'every-event-accounted-for',
          `${consumer.name} ${id}: passed the gate, no inbox row`,
        );
      continue;
    }
    if (committedAt === undefined || m.offset >= committedAt) {
      list('inFlightEvents', id);
      if (quiescent)
        findings.violate('nothing-in-flight', `${consumer.name} has not consumed ${id}`);
      continue;
    }
    findings.violate('every-event-accounted-for', `${consumer.name} ${id}`);
  }
}

/**
 * The consumer's gate (last version) per `aggregateType:aggregateId` of `messages`, and the
 * versions of those aggregates skipped on purpose (`aggregateType:aggregateId@version`).
 */
async function gatesOf(
  consumer: ConsumerState,
  messages: EventMessage[],
): Promise<{ gates: Map<string, number>; skipped: Set<string> }> {
  const gates = new Map<string, number>();
  const skipped = new Set<string>();
  const byType = new Map<string, Set<string>>();
  for (const m of messages) {
    const type = m.headers[EventHeader.aggregateType];
    const id = m.headers[EventHeader.aggregateId];
    if (type && id) byType.set(type, (byType.get(type) ?? new Set()).add(id));
  }
  for (const [type, ids] of byType)
    for (const r of await consumer.db.query(
      `SELECT aggregate_id, last_version FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id IN (?)`,
      [consumer.name, type, [...ids]],
    ))
      gates.set(`${type}:${str(r.aggregate_id)}`, num(r.last_version));
  if (byType.size > 0 && (await consumer.db.hasTable('t_inbox_skip')))
    for (const [type, ids] of byType)
      for (const r of await consumer.db.query(
        `SELECT aggregate_id, aggregate_version FROM t_inbox_skip
         WHERE consumer = ? AND aggregate_type = ? AND aggregate_id IN (?)`,
        [consumer.name, type, [...ids]],
      ))
        skipped.add(`${type}:${str(r.aggregate_id)}@${num(r.aggregate_version)}`);
  return { gates, skipped };
}
