import { EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { EffectQueue } from './effect-queue';
import { Delivery, HandlerLookup } from './inbox-handler.port';
import { InboxProcessor, ProcessResult } from './inbox-processor';
import {
  aggregateKey,
  AggregateRef,
  GateRow,
  InboxBatchStore,
  InboxStore,
} from './inbox-store.port';
import { decideVersion } from './version-decision';

type GateState = AggregateRef & GateRow & { isNew: boolean; dirty: boolean };

/**
 * Batched mode: the same rules as InboxProcessor for several events of one partition in one
 * transaction, with the inbox rows and gate rows read and written in a few multi-row
 * statements. Decisions are made in order against the in-memory gate rows, which the batch
 * holds locked; the handlers then run in that order (EffectQueue: consecutive events of an
 * `@OnEventBatch` handler in one call) before the gate rows are written back.
 */
export class InboxBatchProcessor<Tx = EntityManager> {
  constructor(
    private readonly parts: {
      store: InboxStore<Tx>;
      batchStore: InboxBatchStore<Tx>;
      /** The one-by-one processor: its hold rule and its draining of parked successors. */
      single: InboxProcessor<Tx>;
      handlers: HandlerLookup<Tx>;
    },
  ) {}

  async process(
    manager: Tx,
    items: Array<{ envelope: EventEnvelope; delivery: Delivery }>,
  ): Promise<ProcessResult[]> {
    const existing = await this.parts.batchStore.existingKeys(
      manager,
      items.map((i) => i.envelope.eventKey),
    );
    const seen = new Set(existing);
    const fresh = items.map(({ envelope }) => {
      if (seen.has(envelope.eventKey)) return false;
      seen.add(envelope.eventKey);
      return true;
    });
    const freshItems = items.filter((_, i) => fresh[i]);
    const duplicateKeys = items.filter((_, i) => !fresh[i]).map((i) => i.envelope.eventKey);
    if (freshItems.length === 0) {
      await this.parts.store.recordDuplicates(manager, duplicateKeys);
      return items.map(() => ({ outcome: 'duplicate', drained: 0 }));
    }

    await this.parts.batchStore.recordArrivals(
      manager,
      freshItems.map(({ envelope }) => ({
        envelope,
        outcome: this.parts.handlers.handlerFor(envelope.eventType) ? 'applied' : 'ignored',
      })),
    );
    // After the arrivals: a key repeated within the batch counts on the row just inserted.
    if (duplicateKeys.length > 0) await this.parts.store.recordDuplicates(manager, duplicateKeys);
    const refs = new Map(freshItems.map(({ envelope }) => [aggregateKey(envelope), envelope]));
    const locked = await this.parts.batchStore.lockVersions(manager, [...refs.values()]);
    const gate = new Map<string, GateState>();
    for (const [key, { aggregateType, aggregateId }] of refs) {
      const row = locked.get(key);
      gate.set(key, {
        aggregateType,
        aggregateId,
        lastVersion: row?.lastVersion ?? 0,
        parkedCount: row?.parkedCount ?? 0,
        isNew: row === undefined,
        dirty: false,
      });
    }

    const effects = new EffectQueue<Tx>();
    const results: ProcessResult[] = [];
    for (const [i, item] of items.entries()) {
      results.push(
        fresh[i]
          ? await this.apply(
              manager,
              item.envelope,
              item.delivery,
              gate.get(aggregateKey(item.envelope))!,
              effects,
            )
          : { outcome: 'duplicate', drained: 0 },
      );
    }
    await effects.run(manager);
    await this.parts.batchStore.saveVersions(
      manager,
      [...gate.values()].filter((g) => g.dirty),
    );
    return results;
  }

  private async apply(
    manager: Tx,
    envelope: EventEnvelope,
    delivery: Delivery,
    state: GateState,
    effects: EffectQueue<Tx>,
  ): Promise<ProcessResult> {
    const handler = this.parts.handlers.handlerFor(envelope.eventType);
    const held = this.parts.single.holds(envelope);
    const ungated = handler !== undefined && !handler.versionGate && !held;
    if (ungated) effects.add(handler, envelope, delivery);
    const seenBefore = !state.isNew || state.dirty;
    const last = seenBefore ? state.lastVersion : undefined;
    let decision = decideVersion(last, envelope.aggregateVersion);
    if (decision === 'apply' && held) decision = 'park';
    if (decision === 'stale') {
      if (!ungated) await this.parts.store.setOutcome(manager, envelope.eventKey, 'stale');
      return { outcome: ungated ? 'applied' : 'stale', drained: 0 };
    }
    state.dirty = true;
    if (decision === 'park') {
      await this.parts.store.park(manager, envelope, ungated, delivery);
      state.parkedCount += 1;
      if (ungated) return { outcome: 'applied', drained: 0 };
      await this.parts.store.setOutcome(manager, envelope.eventKey, 'parked');
      return { outcome: 'parked', drained: 0 };
    }
    if (handler && !ungated) effects.add(handler, envelope, delivery);
    let reached = envelope.aggregateVersion;
    if (state.parkedCount > 0) {
      reached = await this.parts.single.drainParked(
        manager,
        envelope.aggregateType,
        envelope.aggregateId,
        reached,
        async (h, e, d) => effects.add(h, e, d),
      );
      state.parkedCount -= reached - envelope.aggregateVersion;
    }
    state.lastVersion = reached;
    return {
      outcome: handler ? 'applied' : 'ignored',
      drained: reached - envelope.aggregateVersion,
    };
  }
}
