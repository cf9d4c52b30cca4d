import { backoffDelay, delay, isTransientDbError } from '@outbox-inbox/database';
import { ContractRunner, eventually, featureGate } from '@outbox-inbox/messaging/testing';
import { Claim } from '../store/outbox-store.port';
import type {
  OutboxClaimTuning,
  OutboxOutcomeTuning,
  OutboxStoreFeature,
  OutboxStoreFixture,
  OutboxStoreUnderTest,
  OutboxTestEvent,
} from './outbox-store.fixture';

/** How long feature 'network-cut' keeps the store cut off from its server: the fault itself. */
export const NETWORK_CUT_MS = 60_000;

/** Resolves once `release` is called: a step of one transaction that another waits for. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

/**
 * Runs `step` until it resolves, pausing with the package's backoff after each failure, as a
 * relay or a writer that retries does; every failure goes to `failed`.
 */
async function untilDone<T>(step: () => Promise<T>, failed: (error: unknown) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      failed(error);
      await delay(backoffDelay({ baseDelayMs: 20, maxDelayMs: 500 }, attempt));
    }
  }
}

/**
 * The real faults of runOutboxStoreContract: a deadlock, a lock wait that times out, the
 * network cut for a minute. Each is told transient by the database package's classifier and
 * retried, and no event is lost or doubled.
 */
export function faultCases(
  fixture: OutboxStoreFixture,
  features: OutboxStoreFeature[],
  current: () => OutboxStoreUnderTest,
  tuning: OutboxClaimTuning & OutboxOutcomeTuning,
  runner: ContractRunner,
): void {
  const { expect, it } = runner;
  const withFeature = featureGate(it, features);
  const idsOf = (claim: Claim | null) => (claim ? claim.rows.map((r) => r.id) : []);
  const statuses = async () => (await current().rows()).map((r) => r.status);
  const parcel = (aggregateId: string, aggregateVersion = 1): OutboxTestEvent => ({
    aggregateType: 'Parcel',
    aggregateId,
    aggregateVersion,
  });

  withFeature('deadlock')(
    'retries whole the writer transaction a deadlock rolled back: each event added and claimed once',
    async () => {
      const store = current();
      const [x, y] = [parcel('x'), parcel('y')];
      const [xAdded, yAdded] = [gate(), gate()];
      let attempts = 0;
      // Each adds its first event, waits until the other has too, then adds the other's: each
      // waits for a key the other holds, and the server rolls one of them back.
      const crossing = (
        [mine, added]: [OutboxTestEvent, ReturnType<typeof gate>],
        [theirs, other]: [OutboxTestEvent, ReturnType<typeof gate>],
      ) =>
        fixture.addInTransaction!(store, async (add) => {
          attempts++;
          await add(mine);
          added.release();
          await other.opened;
          await add(theirs);
        });
      await Promise.all([crossing([x, xAdded], [y, yAdded]), crossing([y, yAdded], [x, xAdded])]);
      expect(attempts).toBe(3);
      const rows = await store.rows();
      expect(rows.map((r) => [r.eventKey, r.status]).sort()).toEqual([
        ['ParcelNoted:x:1', 'NEW'],
        ['ParcelNoted:y:1', 'NEW'],
      ]);
      const claimer = store.claims(tuning, 'r1');
      expect(idsOf(await claimer.claim()).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(await claimer.claim()).toBeNull();
    },
  );

  withFeature('lock-timeout')(
    'fails an outcome write that waits too long for a row lock as transient, changing nothing; the rows come back once',
    async () => {
      const store = current();
      await store.add([parcel('a'), parcel('b')]);
      const short = { ...tuning, leaseMs: 500 };
      const first = (await store.claims(short, 'r1').claim())!;
      const outcomes = store.outcomes(tuning);
      const release = await fixture.lockRows!(store, 1);
      let refused: unknown;
      try {
        refused = await outcomes.markSent(idsOf(first), first.token).catch((e: unknown) => e);
      } finally {
        await release();
      }
      expect(refused).toBeInstanceOf(Error);
      expect(isTransientDbError(refused)).toBe(true);
      expect(await statuses()).toEqual(['SENDING', 'SENDING']);
      // The relay's answer to an outcome it could not write: the lease runs out, another claim
      // takes the rows, and the first lease's token changes nothing any more.
      const second = await eventually(async () => {
        const claim = await store.claims(short, 'r2').claim();
        expect(idsOf(claim).sort()).toEqual(idsOf(first).sort());
        return claim!;
      });
      expect(await outcomes.markSent(idsOf(second), second.token)).toBe(2);
      expect(await outcomes.markSent(idsOf(first), first.token)).toBe(0);
      expect(await statuses()).toEqual(['SENT', 'SENT']);
    },
  );

  withFeature('network-cut')(
    `keeps writing and relaying through a ${NETWORK_CUT_MS / 1000} s network cut: every event stored once, and SENT`,
    async () => {
      const store = current();
      const failures: unknown[] = [];
      const failed = (error: unknown) => failures.push(error);
      const added: string[] = [];
      let working = true;
      // A writer adding one event after another (each retried until it is stored) and a relay
      // claiming and marking SENT, both going on before, during and after the cut.
      const writer = (async () => {
        for (let i = 0; working; i++) {
          await untilDone(() => store.add([parcel(`cut-${i % 7}`, Math.floor(i / 7) + 1)]), failed);
          added.push(`ParcelNoted:cut-${i % 7}:${Math.floor(i / 7) + 1}`);
        }
      })();
      const claimer = store.claims({ ...tuning, batchSize: 5, leaseMs: 2_000 }, 'r1');
      const outcomes = store.outcomes(tuning);
      let relaying = true;
      const relay = (async () => {
        while (relaying) {
          const claim = await untilDone(() => claimer.claim(), failed);
          if (claim) await outcomes.markSent(idsOf(claim), claim.token).catch(failed);
          else await delay(tuning.blockedRecheckMs);
        }
      })();
      await eventually(() => expect(added.length).toBeGreaterThan(10));
      const restore = await fixture.cutNetwork!(store);
      const addedBeforeCut = added.length;
      await delay(NETWORK_CUT_MS);
      expect(added.length - addedBeforeCut).toBeLessThanOrEqual(1);
      expect(failures.length).toBeGreaterThan(0);
      await restore();
      await eventually(() => expect(added.length).toBeGreaterThan(addedBeforeCut + 10), {
        timeoutMs: 30_000,
      });
      working = false;
      await writer;
      // Rows whose claim or outcome the cut swallowed come back when their lease runs out.
      await eventually(
        async () => expect((await statuses()).every((s) => s === 'SENT')).toBe(true),
        {
          timeoutMs: 30_000,
        },
      );
      relaying = false;
      await relay;

      expect(failures.filter((e) => !isTransientDbError(e))).toEqual([]);
      const rows = await store.rows();
      expect(rows.map((r) => r.eventKey).sort()).toEqual([...added].sort());
    },
    NETWORK_CUT_MS + 120_000,
  );
}
