import { eventKeyOf } from '@outbox-inbox/messaging';
import { ConsumerFacts, fulfillmentEvents, OrderBatch } from '../order-batch';
import { BatchRule, groupBy, RuleContext } from './batch-rule';

type Events = ReadonlyArray<{ version: number; eventType: string }>;

/**
 * No consumer applied an aggregate's versions out of order or twice: the gate's last version
 * tops an unbroken run of versions the inbox recorded as taken in (or that an operator skipped
 * on purpose, audited in t_inbox_skip), nothing is recorded above
 * it, nothing parked lies at or just above it (that would have been applied), and the lot
 * holds what the gate counts. Versions are known from the aggregate's own history, so a row
 * pruned from the inbox is told from a lost one: the inbox prunes oldest first and a consumer
 * takes an aggregate's versions in order, so only versions below the oldest retained one can
 * have been pruned, and only once the consumer's prune watermark exists.
 */
export const versionsAppliedInOrder: BatchRule = (batch, context) => {
  for (const consumer of batch.consumers) {
    const parked = groupBy(consumer.parked, (p) => p.aggregate);
    for (const [aggregate, events] of aggregatesOf(batch, consumer)) {
      if (events.length === 0) {
        context.findings.notCheckable(
          'versions-applied-in-order',
          'order older than its event history (t_order_transition)',
        );
        continue;
      }
      checkAggregate(consumer, aggregate, events, parked.get(aggregate) ?? [], context);
    }
  }
};

function aggregatesOf(batch: OrderBatch, consumer: ConsumerFacts): Array<[string, Events]> {
  const aggregates: Array<[string, Events]> = [];
  if (consumer.aggregateTypes.includes('Order'))
    for (const o of batch.orders) aggregates.push([`Order:${o.id}`, o.history]);
  if (consumer.aggregateTypes.includes('Fulfillment'))
    for (const f of batch.fulfillments)
      if (f.eventVersion > 0) aggregates.push([`Fulfillment:${f.id}`, fulfillmentEvents(f)]);
  return aggregates;
}

function checkAggregate(
  consumer: ConsumerFacts,
  aggregate: string,
  events: Events,
  lot: ConsumerFacts['parked'],
  { findings }: RuleContext,
): void {
  const rule = 'versions-applied-in-order';
  const gate = consumer.gates.get(aggregate);
  const last = gate?.lastVersion ?? 0;
  const id = aggregate.slice(aggregate.indexOf(':') + 1);
  const outcome = (e: Events[number]) => consumer.inbox.get(eventKeyOf(e.eventType, id, e.version));
  const taken = events.filter((e) => {
    const o = outcome(e);
    return o === 'applied' || o === 'ignored';
  });
  const name = `${consumer.name} ${aggregate}`;
  if (last > events.length)
    findings.violate(rule, `${name}: gate at version ${last}, the aggregate has ${events.length}`);
  for (const e of taken.filter((e) => e.version > last))
    findings.violate(rule, `${name}: version ${e.version} taken in beyond the gate's ${last}`);
  const oldestRetained = Math.min(...taken.map((e) => e.version));
  let uncomparable = 0;
  const skipped = (e: Events[number]) => consumer.skipped.has(`${aggregate}@${e.version}`);
  for (const e of events) {
    if (e.version > last || taken.includes(e) || skipped(e)) continue;
    if (consumer.pruned && e.version < oldestRetained) {
      uncomparable += 1;
      continue;
    }
    findings.violate(rule, `${name}: version ${e.version} missing (last applied ${last})`);
    break;
  }
  if (uncomparable > 0)
    findings.notCheckable(rule, 'inbox rows pruned (below the prune watermark)', uncomparable);
  const stuck = lot.filter((p) => p.version <= last + 1);
  if (stuck.length > 0)
    findings.violate(
      rule,
      `${name}: parked versions ${stuck.map((p) => p.version).join(',')} should have been applied`,
    );
  if (lot.length !== (gate?.parkedCount ?? 0))
    findings.violate(
      rule,
      `${name}: gate counts ${gate?.parkedCount ?? 0} parked, the lot holds ${lot.length}`,
    );
  const inLot = new Set(lot.map((p) => p.version));
  for (const e of events)
    if (e.version > last && outcome(e) === 'parked' && !inLot.has(e.version))
      findings.violate(rule, `${name}: version ${e.version} marked parked, not in the lot`);
}
