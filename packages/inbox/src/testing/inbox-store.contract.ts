import { EventEnvelope } from '@outbox-inbox/messaging';
import { eventually, featureGate } from '@outbox-inbox/messaging/testing';
import { StoredOutcome } from '../apply/inbox-store.port';
import { batchStoreCases } from './inbox-batch-store.contract';
import { concurrencyCases } from './inbox-store-concurrency.contract';
import { faultCases } from './inbox-store-faults.contract';
import {
  InboxStoreFeature,
  InboxStoreFixture,
  InboxStoreUnderTest,
  InboxTables,
  sortedTables,
  testEvent,
} from './inbox-store.fixture';
import { jestGlobals } from './jest-globals';

const position = { topic: 'parcels', partition: 0, offset: '7' };

/**
 * The contract of the inbox store, which every implementation must pass (MySQL/MariaDB, the
 * in-memory twin, a later SQL dialect): what the apply step relies on of the inbox rows, the
 * version gate and the parking lot, stated as outcomes on rows, with no SQL in it.
 */
export function runInboxStoreContract<Tx>(
  name: string,
  fixture: InboxStoreFixture<Tx>,
  features: InboxStoreFeature[] = [],
): void {
  const { afterEach, beforeEach, describe, expect, it } = jestGlobals();
  const withFeature = featureGate(it, features);

  describe(`inbox store contract: ${name}`, () => {
    let db: InboxStoreUnderTest<Tx>;
    beforeEach(async () => {
      db = await fixture.open();
    });
    afterEach(async () => {
      await db.close();
    });

    const tables = async (): Promise<InboxTables> => sortedTables(await db.tables());
    const inboxRows = async () =>
      (await tables()).inbox.map((r) => [r.consumer, r.eventKey, r.outcome, r.duplicateCount]);
    const gates = async () =>
      (await tables()).gates.map((g) => [g.consumer, g.aggregateId, g.lastVersion, g.parkedCount]);
    /** Takes `event` in for consumer c1, in a transaction of its own. */
    const admit = (event: EventEnvelope, outcome: StoredOutcome = 'applied', fastPath = true) =>
      db.transaction((tx) => db.store('c1').admit(tx, event, outcome, fastPath));

    it('records an event once per consumer, however often it is taken in', async () => {
      const event = testEvent('p1', 1);
      expect(await admit(event)).toBe('advanced');
      expect(await admit(event, 'ignored')).toBe('duplicate');
      expect(await db.transaction((tx) => db.store('c2').admit(tx, event, 'ignored'))).toBe(
        'advanced',
      );
      expect(await inboxRows()).toEqual([
        ['c1', 'ParcelNoted:p1:1', 'applied', 0],
        ['c2', 'ParcelNoted:p1:1', 'ignored', 0],
      ]);
      expect(await gates()).toEqual([
        ['c1', 'p1', 1, 0],
        ['c2', 'p1', 1, 0],
      ]);
    });

    it('tells keys and consumers apart byte for byte: a change of case makes another', async () => {
      for (const id of ['p1', 'P1', 'ab', 'aB'])
        expect(await admit(testEvent(id, 1))).toBe('advanced');
      const other = await db.transaction((tx) =>
        db.store('C1').admit(tx, testEvent('p1', 1), 'applied'),
      );
      expect(other).toBe('advanced');
      const expected = ['c1 p1', 'c1 P1', 'c1 ab', 'c1 aB', 'C1 p1'];
      const rows = (await tables()).inbox.map((r) => `${r.consumer} ${r.eventKey}`);
      expect(new Set(rows)).toEqual(
        new Set(expected.map((e) => e.replace(' ', ' ParcelNoted:') + ':1')),
      );
      expect(rows).toHaveLength(5);
      const gated = (await tables()).gates.map((g) => `${g.consumer} ${g.aggregateId}`);
      expect(new Set(gated)).toEqual(new Set(expected));
      expect(gated).toHaveLength(5);
    });

    it('leaves the transaction usable after a duplicate', async () => {
      const known = testEvent('p1', 1);
      await admit(known);
      const store = db.store('c1');
      const answer = await db.transaction(async (tx) => {
        const again = await store.admit(tx, known, 'ignored');
        await store.recordDuplicates(tx, [known.eventKey]);
        await store.admit(tx, testEvent('p2', 1), 'applied');
        return again;
      });
      expect(answer).toBe('duplicate');
      expect(await inboxRows()).toEqual([
        ['c1', 'ParcelNoted:p1:1', 'applied', 1],
        ['c1', 'ParcelNoted:p2:1', 'applied', 0],
      ]);
    });

    it('counts redeliveries on their rows: a key listed n times counts n', async () => {
      const [a, b] = [testEvent('a', 1), testEvent('b', 1)];
      await admit(a);
      await admit(b);
      await db.transaction((tx) => db.store('c2').admit(tx, a, 'applied'));
      await db.transaction((tx) =>
        db.store('c1').recordDuplicates(tx, [a.eventKey, b.eventKey, a.eventKey, 'Unknown:x:1']),
      );
      expect(await inboxRows()).toEqual([
        ['c1', 'ParcelNoted:a:1', 'applied', 2],
        ['c1', 'ParcelNoted:b:1', 'applied', 1],
        ['c2', 'ParcelNoted:a:1', 'applied', 0],
      ]);
    });

    it("moves an aggregate's gate one version at a time, never back, in the admitting step", async () => {
      expect(await admit(testEvent('p', 1))).toBe('advanced');
      expect(await admit(testEvent('p', 2))).toBe('advanced');
      // Another event of a version the gate passed, a gap, a version 1 of a known aggregate.
      expect(await admit(testEvent('p', 2, { kind: 'Weighed' }))).toBe('arrived');
      expect(await admit(testEvent('p', 4))).toBe('arrived');
      expect(await admit(testEvent('p', 1, { kind: 'Weighed' }))).toBe('arrived');
      expect(await gates()).toEqual([['c1', 'p', 2, 0]]);
      expect(await admit(testEvent('p', 3))).toBe('advanced');
      expect(await gates()).toEqual([['c1', 'p', 3, 0]]);
      expect((await tables()).inbox).toHaveLength(6);
    });

    it('leaves the gate to the full path without the fast path, or while anything is parked', async () => {
      expect(await admit(testEvent('slow', 1), 'applied', false)).toBe('arrived');
      expect(await gates()).toEqual([]);
      await admit(testEvent('held', 1));
      await db.transaction((tx) =>
        db.store('c1').saveVersion(tx, 'Parcel', 'held', { lastVersion: 1, parkedCount: 1 }, false),
      );
      expect(await admit(testEvent('held', 2))).toBe('arrived');
      expect(await gates()).toEqual([['c1', 'held', 1, 1]]);
    });

    it('keeps the gate row of each aggregate and consumer, and rejects a second first row', async () => {
      const store = db.store('c1');
      const gate = (id: string) => db.transaction((tx) => store.lockVersion(tx, 'Parcel', id));
      expect(await gate('g')).toBeUndefined();
      await db.transaction((tx) =>
        store.saveVersion(tx, 'Parcel', 'g', { lastVersion: 0, parkedCount: 2 }, true),
      );
      expect(await gate('g')).toEqual({ lastVersion: 0, parkedCount: 2 });
      await db.transaction((tx) =>
        store.saveVersion(tx, 'Parcel', 'g', { lastVersion: 3, parkedCount: 0 }, false),
      );
      expect(await gate('g')).toEqual({ lastVersion: 3, parkedCount: 0 });
      // Another instance inserted the row after this one read none: the insert must fail.
      await expect(
        db.transaction((tx) =>
          store.saveVersion(tx, 'Parcel', 'g', { lastVersion: 1, parkedCount: 0 }, true),
        ),
      ).rejects.toThrow();
      expect(await gates()).toEqual([['c1', 'g', 3, 0]]);
      expect(await db.transaction((tx) => db.store('c2').lockVersion(tx, 'Parcel', 'g'))).toBe(
        undefined,
      );
    });

    it('records an outcome on the event of its consumer only', async () => {
      const event = testEvent('o', 1);
      await admit(event);
      await db.transaction((tx) => db.store('c2').admit(tx, event, 'applied'));
      await db.transaction((tx) => db.store('c1').setOutcome(tx, event.eventKey, 'stale'));
      expect((await inboxRows()).map((r) => r.slice(0, 3))).toEqual([
        ['c1', 'ParcelNoted:o:1', 'stale'],
        ['c2', 'ParcelNoted:o:1', 'applied'],
      ]);
    });

    it('parks an event and hands it back whole, once; a kept one stays parked', async () => {
      const store = db.store('c1');
      const [v3, v4] = [testEvent('k', 3), testEvent('k', 4)];
      await db.transaction(async (tx) => {
        await store.park(tx, v3, true, position);
        await store.park(tx, v4, false, { ...position, offset: '8' });
      });
      const take = (version: number, keep?: (e: EventEnvelope) => boolean) =>
        db.transaction((tx) => store.takeParked(tx, 'Parcel', 'k', version, keep));
      expect(await take(4, (e) => e.eventKey === v4.eventKey)).toBeUndefined();
      expect(await take(3)).toEqual({ envelope: v3, alreadyHandled: true, position });
      expect(await take(3)).toBeUndefined();
      expect(await db.transaction((tx) => db.store('c2').takeParked(tx, 'Parcel', 'k', 4))).toBe(
        undefined,
      );
      expect((await tables()).parked.map((p) => [p.consumer, p.eventKey])).toEqual([
        ['c1', 'ParcelNoted:k:4'],
      ]);
      expect(await take(4)).toEqual({
        envelope: v4,
        alreadyHandled: false,
        position: { ...position, offset: '8' },
      });
    });

    it('lists the aggregates whose next version is parked, oldest first, up to a limit', async () => {
      const store = db.store('c1');
      const parkAfter = async (id: string, last: number, parked: number, consumer = 'c1') => {
        const parkedAt = Date.now();
        await db.transaction(async (tx) => {
          const own = db.store(consumer);
          await own.saveVersion(tx, 'Parcel', id, { lastVersion: last, parkedCount: 1 }, true);
          await own.park(tx, testEvent(id, parked), false, position);
        });
        // The next park happens in a later millisecond, so "oldest first" has one answer.
        await eventually(() => expect(Date.now()).toBeGreaterThan(parkedAt));
      };
      await parkAfter('second', 2, 3);
      await parkAfter('gap', 2, 4);
      await parkAfter('first', 0, 1);
      await parkAfter('other', 2, 3, 'c2');
      const ready = (limit: number) => db.transaction((tx) => store.readyAggregates(tx, limit));
      expect(await ready(10)).toEqual([
        { aggregateType: 'Parcel', aggregateId: 'second' },
        { aggregateType: 'Parcel', aggregateId: 'first' },
      ]);
      expect(await ready(1)).toEqual([{ aggregateType: 'Parcel', aggregateId: 'second' }]);
    });

    it('keeps nothing of a transaction that rolls back', async () => {
      const store = db.store('c1');
      const failure = new Error('the handler failed');
      await expect(
        db.transaction(async (tx) => {
          await store.admit(tx, testEvent('r', 1), 'applied');
          await store.admit(tx, testEvent('r', 3), 'parked');
          await store.park(tx, testEvent('r', 3), false, position);
          await store.saveVersion(tx, 'Parcel', 'r', { lastVersion: 1, parkedCount: 1 }, false);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await tables()).toEqual({ inbox: [], gates: [], parked: [] });
    });

    withFeature('lost-connection')(
      'keeps nothing of a transaction whose connection was cut, and takes the event in afterwards',
      async () => {
        const store = db.store('c1');
        const event = testEvent('cut', 1);
        await expect(
          db.transaction(async (tx) => {
            await store.admit(tx, event, 'applied');
            await fixture.cutConnections!(db);
            await store.setOutcome(tx, event.eventKey, 'stale');
          }),
        ).rejects.toThrow();
        const admitted = await eventually(() => admit(event));
        expect(admitted).toBe('advanced');
        expect(await inboxRows()).toEqual([['c1', 'ParcelNoted:cut:1', 'applied', 0]]);
      },
    );

    concurrencyCases(() => db);
    batchStoreCases(() => db);
    faultCases(fixture, features, () => db);
  });
}
