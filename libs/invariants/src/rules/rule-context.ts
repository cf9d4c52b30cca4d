import { InvariantRule, Violation } from '../invariant-report';
import { Snapshot, TopicMessage } from '../snapshot';

/** What every rule gets: the snapshot and how strict to be. */
export interface RuleContext {
  snapshot: Snapshot;
  /**
   * True when the deployment is meant to be at rest (a test after its load, an operator after
   * draining): then anything still in flight is a violation too.
   */
  quiescent: boolean;
}

/** A rule: pure, reads the snapshot, lists what breaks it. */
export type Rule = (context: RuleContext) => Violation[];

export function violation(rule: InvariantRule, message: string, ids: string[]): Violation {
  return { rule, message, ids };
}

/** Groups items by a key, keeping their order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The distinct events of the topics (first copy of each event key). */
export function distinctEvents(messages: readonly TopicMessage[]): Map<string, TopicMessage> {
  const events = new Map<string, TopicMessage>();
  for (const m of messages) if (m.eventKey && !events.has(m.eventKey)) events.set(m.eventKey, m);
  return events;
}

/** Event keys a consumer applied (its inbox says so), for one event type. */
export function appliedKeys(snapshot: Snapshot, consumer: string, eventType: string): Set<string> {
  const inbox = snapshot.consumers.find((c) => c.name === consumer)?.inbox ?? [];
  return new Set(
    inbox
      .filter((r) => r.eventType === eventType && r.outcome === 'applied')
      .map((r) => r.eventKey),
  );
}
