import { aggregateKey } from '../apply/inbox-store.port';
import { InboxStoreUnderTest, sortedTables, testEvent } from './inbox-store.fixture';
import { jestGlobals } from './jest-globals';

/**
 * The batch store's part of runInboxStoreContract: the multi-row statements of batched mode
 * keep the rules of the one-event ones, all or none.
 */
export function batchStoreCases<Tx>(database: () => InboxStoreUnderTest<Tx>): void {
  const { describe, expect, it } = jestGlobals();
  describe('batched mode', () => {
    const inboxRows = async () =>
      sortedTables(await database().tables()).inbox.map((r) => [r.consumer, r.eventKey, r.outcome]);
    const gates = async () =>
      sortedTables(await database().tables()).gates.map((g) => [
        g.consumer,
        g.aggregateId,
        g.lastVersion,
        g.parkedCount,
      ]);

    it('records a run of events, and answers which of a list this consumer has', async () => {
      const db = database();
      const [a, b, c] = [testEvent('a', 1), testEvent('b', 1), testEvent('c', 1)];
      await db.transaction((tx) =>
        db.batchStore('c1').recordArrivals(tx, [
          { envelope: a, outcome: 'applied' },
          { envelope: b, outcome: 'ignored' },
        ]),
      );
      await db.transaction((tx) =>
        db.batchStore('c2').recordArrivals(tx, [{ envelope: c, outcome: 'applied' }]),
      );
      const known = await db.transaction((tx) =>
        db.batchStore('c1').existingKeys(tx, [a.eventKey, c.eventKey, b.eventKey]),
      );
      expect([...known].sort()).toEqual([a.eventKey, b.eventKey]);
      expect(await inboxRows()).toEqual([
        ['c1', 'ParcelNoted:a:1', 'applied'],
        ['c1', 'ParcelNoted:b:1', 'ignored'],
        ['c2', 'ParcelNoted:c:1', 'applied'],
      ]);
    });

    it('records none of a run when one of its events is recorded already', async () => {
      const db = database();
      const known = testEvent('known', 1);
      await db.transaction((tx) => db.store('c1').admit(tx, known, 'applied'));
      const run = [testEvent('new', 1), known, testEvent('new', 2)];
      await db.transaction(async (tx) => {
        await expect(
          db.batchStore('c1').recordArrivals(
            tx,
            run.map((envelope) => ({ envelope, outcome: 'applied' as const })),
          ),
        ).rejects.toThrow();
      });
      expect(await inboxRows()).toEqual([['c1', 'ParcelNoted:known:1', 'applied']]);
    });

    it('reads and writes the gate rows of several aggregates at once', async () => {
      const db = database();
      const batch = db.batchStore('c1');
      const [x, y] = [
        { aggregateType: 'Parcel', aggregateId: 'x' },
        { aggregateType: 'Parcel', aggregateId: 'y' },
      ];
      await db.transaction((tx) =>
        batch.saveVersions(tx, [{ ...x, lastVersion: 1, parkedCount: 0, isNew: true }]),
      );
      const locked = await db.transaction((tx) => batch.lockVersions(tx, [x, y]));
      expect([...locked.entries()]).toEqual([
        [aggregateKey(x), { lastVersion: 1, parkedCount: 0 }],
      ]);
      await db.transaction((tx) =>
        batch.saveVersions(tx, [
          { ...x, lastVersion: 4, parkedCount: 1, isNew: false },
          { ...y, lastVersion: 0, parkedCount: 2, isNew: true },
        ]),
      );
      expect(await gates()).toEqual([
        ['c1', 'x', 4, 1],
        ['c1', 'y', 0, 2],
      ]);
      expect(
        (await db.transaction((tx) => db.batchStore('c2').lockVersions(tx, [x, y]))).size,
      ).toBe(0);
    });

    it('rejects a new gate row that another transaction wrote meanwhile, and writes none', async () => {
      const db = database();
      const batch = db.batchStore('c1');
      const taken = { aggregateType: 'Parcel', aggregateId: 'taken' };
      await db.transaction((tx) =>
        batch.saveVersions(tx, [{ ...taken, lastVersion: 2, parkedCount: 0, isNew: true }]),
      );
      await expect(
        db.transaction((tx) =>
          batch.saveVersions(tx, [
            {
              aggregateType: 'Parcel',
              aggregateId: 'fresh',
              lastVersion: 1,
              parkedCount: 0,
              isNew: true,
            },
            { ...taken, lastVersion: 1, parkedCount: 0, isNew: true },
          ]),
        ),
      ).rejects.toThrow();
      expect(await gates()).toEqual([['c1', 'taken', 2, 0]]);
    });
  });
}
