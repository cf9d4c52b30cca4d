import { Findings } from '../findings';
import { OrderBatch } from '../order-batch';

/** What a batch rule gets besides the batch. */
export interface RuleContext {
  findings: Findings;
  /**
   * True when the deployment is meant to be at rest (a test after its load, an operator after
   * draining): then what is merely in flight on a live system is a violation too.
   */
  quiescent: boolean;
}

/** A rule over one page of orders: pure, reports what breaks it to the findings. */
export type BatchRule = (batch: OrderBatch, context: RuleContext) => void;

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

/** The version of the order's last event of `eventType`, if it has one. */
export function versionOf(
  history: ReadonlyArray<{ version: number; eventType: string }>,
  eventType: string,
): number | undefined {
  let found: number | undefined;
  for (const e of history) if (e.eventType === eventType) found = e.version;
  return found;
}

/** Whether `consumer`'s gate passed version `version` of `aggregate` (`type:id`). */
export function gatePassed(
  batch: OrderBatch,
  consumer: string,
  aggregate: string,
  version: number,
): boolean {
  const gate = batch.consumers.find((c) => c.name === consumer)?.gates.get(aggregate);
  return gate !== undefined && gate.lastVersion >= version;
}
