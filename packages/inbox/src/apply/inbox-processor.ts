import { envelopeHeaders, EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { Delivery, HandlerLookup, InboxHandler } from './inbox-handler.port';
import { InboxStore } from './inbox-store.port';
import { decideVersion } from './version-decision';

/** Runs a handler on one event; batched mode queues the call instead. */
export type ApplyEvent<Tx = EntityManager> = (
  handler: InboxHandler<Tx>,
  envelope: EventEnvelope,
  delivery: Delivery,
) => Promise<void>;

/**
 * True for an event this consumer must not apply yet: it handles the type, but the event is
 * of a newer schema version than it knows. Such an event is parked, not misapplied, and its
 * aggregate's successors wait behind it until a consumer that knows the version drains it.
 */
export type HoldRule = (envelope: EventEnvelope) => boolean;

/** What happened to one delivered message. */
export type InboxOutcome = 'applied' | 'ignored' | 'stale' | 'parked' | 'duplicate';

/** What became of one delivered message, and what it set free. */
export interface ProcessResult {
  outcome: InboxOutcome;
  /** Parked successors applied after this event filled their gap. */
  drained: number;
}

/**
 * Takes one event in, inside the caller's transaction: inbox row (a duplicate stops here),
 * version gate, handler, then the parked successors whose gap this event filled. Every event
 * of the aggregate passes the gate, handled or not, so versions of event types this consumer
 * ignores leave no gap. `Tx` is the caller's transaction (the EntityManager in the module).
 */
export class InboxProcessor<Tx = EntityManager> {
  constructor(
    private readonly store: InboxStore<Tx>,
    private readonly handlers: HandlerLookup<Tx>,
    /** Events held back (parked) although their turn came; see HoldRule. */
    readonly holds: HoldRule = () => false,
  ) {}

  async process(manager: Tx, envelope: EventEnvelope, delivery: Delivery): Promise<ProcessResult> {
    const handler = this.handlers.handlerFor(envelope.eventType);
    const handledOutcome = handler ? 'applied' : 'ignored';
    const held = this.holds(envelope);
    const admitted = await this.store.admit(manager, envelope, handledOutcome, !held);
    if (admitted === 'duplicate') {
      await this.store.recordDuplicates(manager, [envelope.eventKey]);
      return { outcome: 'duplicate', drained: 0 };
    }
    // The common case, decided by admit's one gate statement: the next version of an
    // aggregate with nothing parked (or its first event).
    if (admitted === 'advanced') {
      if (handler) await handler.handle(manager, envelope, delivery);
      return { outcome: handledOutcome, drained: 0 };
    }
    const ungated = handler !== undefined && !handler.versionGate && !held;
    // Order does not matter for this type: take effect now, and still fill the gate's slot.
    if (ungated) await handler.handle(manager, envelope, delivery);

    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    const row = await this.store.lockVersion(manager, aggregateType, aggregateId);
    let decision = decideVersion(row?.lastVersion, aggregateVersion);
    if (decision === 'apply' && held) decision = 'park';
    if (decision === 'stale') {
      if (!ungated) await this.store.setOutcome(manager, envelope.eventKey, 'stale');
      return { outcome: ungated ? 'applied' : 'stale', drained: 0 };
    }
    if (decision === 'park') {
      await this.store.park(manager, envelope, ungated, delivery);
      const parked = {
        lastVersion: row?.lastVersion ?? 0,
        parkedCount: (row?.parkedCount ?? 0) + 1,
      };
      await this.store.saveVersion(manager, aggregateType, aggregateId, parked, row === undefined);
      if (ungated) return { outcome: 'applied', drained: 0 };
      await this.store.setOutcome(manager, envelope.eventKey, 'parked');
      return { outcome: 'parked', drained: 0 };
    }
    if (handler && !ungated) await handler.handle(manager, envelope, delivery);
    const parkedCount = row?.parkedCount ?? 0;
    const reached =
      parkedCount > 0
        ? await this.drainParked(manager, aggregateType, aggregateId, aggregateVersion)
        : aggregateVersion;
    const drained = reached - aggregateVersion;
    await this.store.saveVersion(
      manager,
      aggregateType,
      aggregateId,
      { lastVersion: reached, parkedCount: parkedCount - drained },
      row === undefined,
    );
    return { outcome: handledOutcome, drained };
  }

  /**
   * Applies parked successors of `version` in order; returns the last version applied. Also
   * used by InboxBatchProcessor, which passes an `apply` that queues the handler calls.
   */
  async drainParked(
    manager: Tx,
    aggregateType: string,
    aggregateId: string,
    version: number,
    apply: ApplyEvent<Tx> = (handler, envelope, delivery) =>
      handler.handle(manager, envelope, delivery),
  ): Promise<number> {
    for (;;) {
      const next = await this.store.takeParked(
        manager,
        aggregateType,
        aggregateId,
        version + 1,
        this.holds,
      );
      if (!next) return version;
      const handler = this.handlers.handlerFor(next.envelope.eventType);
      if (!next.alreadyHandled) {
        // Parked rows keep the envelope, not the Kafka headers: rebuild the envelope's own.
        const headers = envelopeHeaders(next.envelope);
        if (handler) await apply(handler, next.envelope, { ...next.position, headers });
        await this.store.setOutcome(
          manager,
          next.envelope.eventKey,
          handler ? 'applied' : 'ignored',
        );
      }
      version += 1;
    }
  }

  /**
   * Drains an aggregate whose next version is parked although nothing is missing (an event
   * held for a newer schema, once this consumer knows it; a gap skipped on purpose). Answers
   * how many events were applied.
   */
  async drainReady(manager: Tx, aggregateType: string, aggregateId: string): Promise<number> {
    const row = await this.store.lockVersion(manager, aggregateType, aggregateId);
    if (!row || row.parkedCount === 0) return 0;
    const reached = await this.drainParked(manager, aggregateType, aggregateId, row.lastVersion);
    const drained = reached - row.lastVersion;
    if (drained > 0) {
      const next = { lastVersion: reached, parkedCount: row.parkedCount - drained };
      await this.store.saveVersion(manager, aggregateType, aggregateId, next, false);
    }
    return drained;
  }
}
