import { backoffDelay, delay, isTransientDbError } from '@outbox-inbox/database';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { eventually, featureGate } from '@outbox-inbox/messaging/testing';
import { Admission } from '../apply/inbox-store.port';
import {
  InboxStoreFeature,
  InboxStoreFixture,
  InboxStoreUnderTest,
  sortedTables,
  testEvent,
} from './inbox-store.fixture';
import { jestGlobals } from './jest-globals';

/** How long feature 'network-cut' keeps the store cut off from its server: the fault itself. */
export const NETWORK_CUT_MS = 60_000;

/** A step of one transaction that another waits for: `reached` resolves once `reach` is called. */
function milestone() {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

/**
 * The real faults of runInboxStoreContract: a deadlock, a lock wait that times out, the network
 * cut for a minute. Each is told transient by the database package's classifier, the
 * transaction is retried whole by the package's runner, and every event counts once.
 */
export function faultCases<Tx>(
  fixture: InboxStoreFixture<Tx>,
  features: InboxStoreFeature[],
  database: () => InboxStoreUnderTest<Tx>,
): void {
  const { describe, expect, it } = jestGlobals();
  const withFeature = featureGate(it, features);
  const retried = <T>(work: (tx: Tx) => Promise<T>) =>
    fixture.retriedTransaction!(database(), work);
  const c1 = () => database().store('c1');
  const inboxRows = async () =>
    sortedTables(await database().tables()).inbox.map((r) => [
      r.eventKey,
      r.outcome,
      r.duplicateCount,
    ]);
  const gates = async () =>
    sortedTables(await database().tables()).gates.map((g) => [g.aggregateId, g.lastVersion]);

  describe('real faults', () => {
    withFeature('deadlock')(
      'retries whole the transaction a deadlock rolled back: each event recorded once',
      async () => {
        const [x, y] = [testEvent('x', 1), testEvent('y', 1)];
        const [xIn, yIn] = [milestone(), milestone()];
        let attempts = 0;
        // Each takes its first event in, waits until the other has too, then takes the other's:
        // each waits for a row the other wrote, and the server rolls one of them back.
        type Step = [EventEnvelope, ReturnType<typeof milestone>];
        const crossing = ([first, firstIn]: Step, [second, secondIn]: Step) =>
          retried(async (tx) => {
            attempts++;
            const answers = [await c1().admit(tx, first, 'applied')];
            firstIn.reach();
            await secondIn.reached;
            answers.push(await c1().admit(tx, second, 'applied'));
            return answers;
          });
        const answers = await Promise.all([
          crossing([x, xIn], [y, yIn]),
          crossing([y, yIn], [x, xIn]),
        ]);
        expect(attempts).toBe(3);
        // The winner advanced both gates; the loser's retry found both events duplicates.
        expect(answers.flat().sort()).toEqual(['advanced', 'advanced', 'duplicate', 'duplicate']);
        expect(await inboxRows()).toEqual([
          ['ParcelNoted:x:1', 'applied', 0],
          ['ParcelNoted:y:1', 'applied', 0],
        ]);
        expect(await gates()).toEqual([
          ['x', 1],
          ['y', 1],
        ]);
      },
    );

    withFeature('lock-timeout')(
      'retries whole an admit that waited too long for a locked gate row, once the lock is gone',
      async () => {
        await retried((tx) => c1().admit(tx, testEvent('held', 1), 'applied'));
        let attempts = 0;
        let admitted: Promise<Admission> | undefined;
        // Another transaction holds the gate row locked until the admit has been refused once.
        await database().transaction(async (tx) => {
          await c1().lockVersion(tx, 'Parcel', 'held');
          admitted = retried((other) => {
            attempts++;
            return c1().admit(other, testEvent('held', 2), 'applied');
          });
          admitted.catch(() => undefined);
          // Refused once and tried again; an admit that settles first fails the case with its answer.
          const refusedOnce = eventually(() => expect(attempts).toBeGreaterThan(1), {
            timeoutMs: 30_000,
          });
          refusedOnce.catch(() => undefined);
          await Promise.race([refusedOnce, admitted.then((a) => expect(a).toBe('refused once'))]);
        });
        expect(await admitted).toBe('advanced');
        expect(await inboxRows()).toEqual([
          ['ParcelNoted:held:1', 'applied', 0],
          ['ParcelNoted:held:2', 'applied', 0],
        ]);
        expect(await gates()).toEqual([['held', 2]]);
      },
    );

    withFeature('network-cut')(
      `takes events in through a ${NETWORK_CUT_MS / 1000} s network cut: each recorded once, gates in step`,
      async () => {
        const failures: unknown[] = [];
        const taken: EventEnvelope[] = [];
        let consuming = true;
        // A consumer taking one event after another in, each redelivered until its transaction
        // commits (a transaction whose commit was lost finds its event a duplicate then).
        const consumer = (async () => {
          for (let i = 0; consuming; i++) {
            const event = testEvent(`cut-${i % 5}`, Math.floor(i / 5) + 1);
            for (let attempt = 1; ; attempt++) {
              const answer = await retried((tx) => c1().admit(tx, event, 'applied')).catch(
                (error: unknown) => void failures.push(error),
              );
              if (answer) break;
              await delay(backoffDelay({ baseDelayMs: 20, maxDelayMs: 500 }, attempt));
            }
            taken.push(event);
          }
        })();
        await eventually(() => expect(taken.length).toBeGreaterThan(10));
        const restore = await fixture.cutNetwork!(database());
        const takenBeforeCut = taken.length;
        await delay(NETWORK_CUT_MS);
        expect(taken.length - takenBeforeCut).toBeLessThanOrEqual(1);
        expect(failures.length).toBeGreaterThan(0);
        await restore();
        await eventually(() => expect(taken.length).toBeGreaterThan(takenBeforeCut + 10), {
          timeoutMs: 30_000,
        });
        consuming = false;
        await consumer;

        expect(failures.filter((e) => !isTransientDbError(e))).toEqual([]);
        const rows = await inboxRows();
        expect(rows.map(([key]) => key).sort()).toEqual(taken.map((e) => e.eventKey).sort());
        expect(
          rows.filter(([, outcome, duplicates]) => outcome !== 'applied' || duplicates !== 0),
        ).toEqual([]);
        const last = new Map(taken.map((e) => [e.aggregateId, e.aggregateVersion]));
        expect(await gates()).toEqual([...last].sort());
      },
      NETWORK_CUT_MS + 120_000,
    );
  });
}
