import { EventEnvelope } from '@outbox-inbox/messaging';
import { InMemoryInboxDatabase, InMemoryInboxTransaction } from '../testing';
import { sortedTables, testEvent } from '../testing/inbox-store.fixture';
import { InboxBatchProcessor } from './inbox-batch-processor';
import { HandlerLookup, InboxHandler } from './inbox-handler.port';
import { HoldRule, InboxProcessor } from './inbox-processor';

type Tx = InMemoryInboxTransaction;
const delivery = { topic: 'parcels', partition: 0, offset: '1', headers: {} };

/** The apply step over the in-memory twin: what a consumer applies, and in which order. */
describe('InboxProcessor', () => {
  let db: InMemoryInboxDatabase;
  /** Event keys the handlers applied, in order. */
  let applied: string[];
  let failing: Set<string>;
  const handler = (versionGate = true): InboxHandler<Tx> => ({
    versionGate,
    handle: async (_tx, envelope) => {
      if (failing.has(envelope.eventKey)) throw new Error(`${envelope.eventKey} failed`);
      applied.push(envelope.eventKey);
    },
  });
  const handlers: Record<string, InboxHandler<Tx>> = {
    ParcelNoted: handler(),
    ParcelRelabeled: handler(),
    ParcelScanned: handler(false),
  };
  const lookup: HandlerLookup<Tx> = { handlerFor: (eventType) => handlers[eventType] };
  let held: Set<string>;
  const holds: HoldRule = (envelope) => held.has(envelope.eventKey);
  const processor = () => new InboxProcessor(db.store('c1'), lookup, holds);
  const take = (event: EventEnvelope) =>
    db.transaction((tx) => processor().process(tx, event, delivery));

  beforeEach(() => {
    db = new InMemoryInboxDatabase();
    applied = [];
    failing = new Set();
    held = new Set();
  });

  it("applies an aggregate's events in version order, whatever order they arrive in", async () => {
    expect(await take(testEvent('p', 1))).toEqual({ outcome: 'applied', drained: 0 });
    expect(await take(testEvent('p', 3))).toEqual({ outcome: 'parked', drained: 0 });
    expect(await take(testEvent('p', 4))).toEqual({ outcome: 'parked', drained: 0 });
    expect(applied).toEqual(['ParcelNoted:p:1']);
    expect(await take(testEvent('p', 2))).toEqual({ outcome: 'applied', drained: 2 });
    expect(applied).toEqual([
      'ParcelNoted:p:1',
      'ParcelNoted:p:2',
      'ParcelNoted:p:3',
      'ParcelNoted:p:4',
    ]);
    const { gates, parked, inbox } = sortedTables(await db.tables());
    expect(gates.map((g) => [g.aggregateId, g.lastVersion, g.parkedCount])).toEqual([['p', 4, 0]]);
    expect(parked).toEqual([]);
    expect(inbox.map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied', 'applied']);
  });

  it('applies a redelivered event once, and counts the redelivery', async () => {
    const event = testEvent('d', 1);
    await take(event);
    expect(await take(event)).toEqual({ outcome: 'duplicate', drained: 0 });
    expect(applied).toEqual(['ParcelNoted:d:1']);
    expect((await db.tables()).inbox.map((r) => r.duplicateCount)).toEqual([1]);
  });

  it('calls an event older than the last applied one stale, and does not apply it', async () => {
    await take(testEvent('s', 1));
    await take(testEvent('s', 2));
    expect(await take(testEvent('s', 1, { kind: 'Relabeled' }))).toEqual({
      outcome: 'stale',
      drained: 0,
    });
    expect(applied).toEqual(['ParcelNoted:s:1', 'ParcelNoted:s:2']);
  });

  it('lets a version nobody here handles through the gate, so it leaves no gap', async () => {
    await take(testEvent('i', 1));
    expect(await take(testEvent('i', 2, { kind: 'Weighed' }))).toEqual({
      outcome: 'ignored',
      drained: 0,
    });
    expect(await take(testEvent('i', 3))).toEqual({ outcome: 'applied', drained: 0 });
    expect(applied).toEqual(['ParcelNoted:i:1', 'ParcelNoted:i:3']);
  });

  it('applies an ungated type at once, and still holds the versions after its gap', async () => {
    await take(testEvent('u', 1));
    expect(await take(testEvent('u', 3, { kind: 'Scanned' }))).toEqual({
      outcome: 'applied',
      drained: 0,
    });
    expect(await take(testEvent('u', 4))).toEqual({ outcome: 'parked', drained: 0 });
    expect(await take(testEvent('u', 2))).toEqual({ outcome: 'applied', drained: 2 });
    // The ungated event is not applied a second time when the gate passes it.
    expect(applied).toEqual([
      'ParcelNoted:u:1',
      'ParcelScanned:u:3',
      'ParcelNoted:u:2',
      'ParcelNoted:u:4',
    ]);
  });

  it('keeps nothing of an event whose handler failed, so its redelivery applies it', async () => {
    const event = testEvent('f', 1);
    failing.add(event.eventKey);
    await expect(take(event)).rejects.toThrow('failed');
    expect(await db.tables()).toEqual({ inbox: [], gates: [], parked: [] });
    failing.clear();
    expect(await take(event)).toEqual({ outcome: 'applied', drained: 0 });
  });

  it('parks a held event although its turn came, and drains it and its successors once released', async () => {
    const v2 = testEvent('h', 2);
    held.add(v2.eventKey);
    await take(testEvent('h', 1));
    expect(await take(v2)).toEqual({ outcome: 'parked', drained: 0 });
    expect(await take(testEvent('h', 3))).toEqual({ outcome: 'parked', drained: 0 });
    expect(await db.transaction((tx) => processor().drainReady(tx, 'Parcel', 'h'))).toBe(0);
    held.clear();
    expect(await db.transaction((tx) => db.store('c1').readyAggregates(tx, 10))).toEqual([
      { aggregateType: 'Parcel', aggregateId: 'h' },
    ]);
    expect(await db.transaction((tx) => processor().drainReady(tx, 'Parcel', 'h'))).toBe(2);
    expect(applied).toEqual(['ParcelNoted:h:1', 'ParcelNoted:h:2', 'ParcelNoted:h:3']);
  });
});

describe('InboxBatchProcessor', () => {
  it('applies a batch by the same rules, in order, with repeats within it counted as duplicates', async () => {
    const db = new InMemoryInboxDatabase();
    const applied: string[] = [];
    const noted: InboxHandler<Tx> = {
      versionGate: true,
      handle: async (_tx, envelope) => {
        applied.push(envelope.eventKey);
      },
    };
    const lookup: HandlerLookup<Tx> = {
      handlerFor: (type) => (type === 'ParcelNoted' ? noted : undefined),
    };
    const store = db.store('c1');
    const single = new InboxProcessor(store, lookup);
    const batch = new InboxBatchProcessor({
      store,
      batchStore: db.batchStore('c1'),
      single,
      handlers: lookup,
    });
    const events = [testEvent('b', 2), testEvent('b', 1), testEvent('b', 2), testEvent('c', 1)];
    const results = await db.transaction((tx) =>
      batch.process(
        tx,
        events.map((envelope) => ({ envelope, delivery })),
      ),
    );
    expect(results).toEqual([
      { outcome: 'parked', drained: 0 },
      { outcome: 'applied', drained: 1 },
      { outcome: 'duplicate', drained: 0 },
      { outcome: 'applied', drained: 0 },
    ]);
    expect(applied).toEqual(['ParcelNoted:b:1', 'ParcelNoted:b:2', 'ParcelNoted:c:1']);
    const { gates, inbox } = sortedTables(await db.tables());
    expect(gates.map((g) => [g.aggregateId, g.lastVersion, g.parkedCount])).toEqual([
      ['b', 2, 0],
      ['c', 1, 0],
    ]);
    expect(inbox.map((r) => [r.eventKey, r.outcome, r.duplicateCount])).toEqual([
      ['ParcelNoted:b:1', 'applied', 0],
      ['ParcelNoted:b:2', 'applied', 1],
      ['ParcelNoted:c:1', 'applied', 0],
    ]);
  });
});
