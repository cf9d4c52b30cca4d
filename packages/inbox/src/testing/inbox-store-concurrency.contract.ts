import { eventually } from '@outbox-inbox/messaging/testing';
import { InboxStoreUnderTest, sortedTables, testEvent } from './inbox-store.fixture';
import { jestGlobals } from './jest-globals';

/**
 * How often `lockWaits` is asked. Not more often than every 100 ms: MariaDB refreshes what
 * information_schema.INNODB_TRX shows only once it has not been read for that long.
 */
const LOCK_WAIT_POLL = { intervalMs: 200, timeoutMs: 10_000 };

/**
 * The concurrency part of runInboxStoreContract: a transaction that needs what another one
 * wrote (its event's row, its aggregate's gate row) waits for it to end, then builds on what
 * it committed, or on nothing if it rolled back.
 */
export function concurrencyCases<Tx>(database: () => InboxStoreUnderTest<Tx>): void {
  const { describe, expect, it } = jestGlobals();
  describe('two transactions at once', () => {
    const inboxRows = async () =>
      sortedTables(await database().tables()).inbox.map((r) => [
        r.consumer,
        r.eventKey,
        r.outcome,
        r.duplicateCount,
      ]);
    const gates = async () =>
      sortedTables(await database().tables()).gates.map((g) => [
        g.consumer,
        g.aggregateId,
        g.lastVersion,
        g.parkedCount,
      ]);
    /** The store of consumer c1, the one every case here uses. */
    const c1 = () => database().store('c1');
    const admit = (event: ReturnType<typeof testEvent>) =>
      database().transaction((tx) => c1().admit(tx, event, 'applied'));

    /**
     * Runs `first` in a transaction, starts `second` in another before the first ends, waits
     * until the second waits for the first's lock, then ends the first: committed, or rolled
     * back. Answers what `second` answered.
     */
    async function overlapping<T>(
      first: (tx: Tx) => Promise<unknown>,
      second: (tx: Tx) => Promise<T>,
      firstEnds: 'commit' | 'rollback',
    ): Promise<T> {
      let later: Promise<T> | undefined;
      const rolledBack = new Error('rolled back by the suite');
      const earlier = database().transaction(async (tx) => {
        await first(tx);
        later = database().transaction(second);
        // Awaited below, once the first has ended; until then a rejection is not unhandled.
        later.catch(() => undefined);
        await eventually(async () => expect(await database().lockWaits()).toBe(1), LOCK_WAIT_POLL);
        if (firstEnds === 'rollback') throw rolledBack;
      });
      if (firstEnds === 'rollback') await expect(earlier).rejects.toBe(rolledBack);
      else await earlier;
      return later!;
    }

    it('makes a second transaction taking the same event in wait, then finds it a duplicate', async () => {
      const event = testEvent('race', 1);
      const second = await overlapping(
        (tx) => c1().admit(tx, event, 'applied'),
        (tx) => c1().admit(tx, event, 'applied'),
        'commit',
      );
      expect(second).toBe('duplicate');
      expect(await inboxRows()).toEqual([['c1', 'ParcelNoted:race:1', 'applied', 0]]);
      expect(await gates()).toEqual([['c1', 'race', 1, 0]]);
    });

    it('records the event in the second transaction when the first rolls back', async () => {
      const event = testEvent('race', 1);
      const second = await overlapping(
        (tx) => c1().admit(tx, event, 'applied'),
        (tx) => c1().admit(tx, event, 'ignored'),
        'rollback',
      );
      expect(second).toBe('advanced');
      expect(await inboxRows()).toEqual([['c1', 'ParcelNoted:race:1', 'ignored', 0]]);
    });

    it("moves the gate from what the earlier version's transaction committed, not before", async () => {
      const committed = await overlapping(
        (tx) => c1().admit(tx, testEvent('seq', 1), 'applied'),
        (tx) => c1().admit(tx, testEvent('seq', 2), 'applied'),
        'commit',
      );
      expect(committed).toBe('advanced');
      expect(await gates()).toEqual([['c1', 'seq', 2, 0]]);
      const rolledBack = await overlapping(
        (tx) => c1().admit(tx, testEvent('gone', 1), 'applied'),
        (tx) => c1().admit(tx, testEvent('gone', 2), 'applied'),
        'rollback',
      );
      expect(rolledBack).toBe('arrived');
      expect(await gates()).toEqual([['c1', 'seq', 2, 0]]);
    });

    it('holds a locked gate row until commit: the next reader sees what was written', async () => {
      const store = c1();
      await admit(testEvent('lock', 1));
      const seen = await overlapping(
        async (tx) => {
          const row = await store.lockVersion(tx, 'Parcel', 'lock');
          await store.saveVersion(tx, 'Parcel', 'lock', { ...row!, lastVersion: 5 }, false);
        },
        (tx) => store.lockVersion(tx, 'Parcel', 'lock'),
        'commit',
      );
      expect(seen).toEqual({ lastVersion: 5, parkedCount: 0 });
    });
  });
}
