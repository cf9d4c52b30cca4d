import {
  ContractRunner,
  eventually,
  featureGate,
  runnerGlobals,
} from '@outbox-inbox/messaging/testing';
import { Claim, OutboxClaims } from '../store/outbox-store.port';
import { faultCases } from './outbox-store-faults.contract';
import {
  OutboxClaimTuning,
  OutboxOutcomeTuning,
  OutboxStoreFeature,
  OutboxStoreFixture,
  OutboxStoreUnderTest,
  OutboxTestEvent,
} from './outbox-store.fixture';

const TUNING: OutboxClaimTuning & OutboxOutcomeTuning = {
  batchSize: 10,
  maxBatchBytes: 900_000,
  leaseMs: 30_000,
  deadPolicy: 'block',
  blockedRecheckMs: 20,
  deadBlockedRecheckMs: 0,
  maxAttempts: 3,
  backoff: { baseDelayMs: 10, maxDelayMs: 20 },
};

/**
 * The contract of the outbox store, which every implementation must pass (the SQL store on
 * MySQL/MariaDB and on PostgreSQL, the in-memory twin): what the relay and the operators rely
 * on of t_outbox, stated as outcomes on rows, with no SQL in it.
 */
export function runOutboxStoreContract(
  name: string,
  fixture: OutboxStoreFixture,
  features: OutboxStoreFeature[] = [],
  runner: ContractRunner = runnerGlobals(),
): void {
  const { afterEach, beforeEach, describe, expect, it } = runner;
  const withFeature = featureGate(it, features);

  describe(`outbox store contract: ${name}`, () => {
    let store: OutboxStoreUnderTest;
    beforeEach(async () => {
      store = await fixture.open();
    });
    afterEach(async () => {
      await store.close();
    });

    const events = (count: number, aggregateType = 'Parcel'): OutboxTestEvent[] =>
      Array.from({ length: count }, (_, i) => ({
        aggregateType,
        aggregateId: `a${i}`,
        aggregateVersion: 1,
      }));
    const idsOf = (claim: Claim | null) => (claim ? claim.rows.map((r) => r.id) : []);
    const statuses = async () => (await store.rows()).map((r) => r.status);
    /** The claimer's next claim that holds rows, once one does (rows come due over time). */
    const nextClaim = (claimer: OutboxClaims) =>
      eventually(async () => {
        const claim = await claimer.claim();
        if (!claim) throw new Error('nothing claimed yet');
        return claim;
      });

    it('adds an event once, however often it is added', async () => {
      const event = { aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: 1 };
      await store.add([event]);
      await store.add([event]);
      const rows = await store.rows();
      expect(rows.map((r) => [r.eventKey, r.status, r.retryCount])).toEqual([
        ['ParcelNoted:p1:1', 'NEW', 0],
      ]);
    });

    it('tells keys apart byte for byte: a change of case makes another event', async () => {
      const ids = ['p1', 'P1', 'ab', 'aB'];
      await store.add(ids.map((aggregateId) => ({ ...events(1)[0], aggregateId })));
      const expected = ids.map((id) => `ParcelNoted:${id}:1`).sort();
      expect((await store.rows()).map((r) => r.eventKey).sort()).toEqual(expected);
      // Four aggregates, so nothing holds another back: one claim takes them all.
      const claim = await nextClaim(store.claims(TUNING, 'r1'));
      expect(claim.rows.map((r) => r.eventKey).sort()).toEqual(expected);
    });

    it('never hands one row to two claims running at once', async () => {
      await store.add(events(40));
      const claimers = ['r1', 'r2', 'r3', 'r4'].map((owner) =>
        store.claims({ ...TUNING, batchSize: 3 }, owner),
      );
      const claimed: string[] = [];
      for (let round = 0; round < 40; round++) {
        const claims = await Promise.all(claimers.map((c) => c.claim()));
        claimed.push(...claims.flatMap(idsOf));
        if (claims.every((c) => c === null)) break;
      }
      expect(claimed).toHaveLength(40);
      expect(new Set(claimed).size).toBe(40);
      expect(await statuses()).toEqual(Array(40).fill('SENDING'));
    });

    it('changes nothing under a lease token that is not the current one', async () => {
      await store.add(events(3));
      const outcomes = store.outcomes(TUNING);
      const claim = (await store.claims(TUNING, 'r1').claim())!;
      const ids = idsOf(claim);
      expect(await outcomes.markSent(ids, 'not-the-token')).toBe(0);
      expect(await outcomes.markDead(ids, 'not-the-token', 'no')).toBe(0);
      expect(await outcomes.release(ids, 'not-the-token')).toBe(0);
      expect(await outcomes.extendLease(ids, 'not-the-token', 1_000)).toBe(0);
      expect(await statuses()).toEqual(['SENDING', 'SENDING', 'SENDING']);
      expect(await outcomes.markSent(ids, claim.token)).toBe(3);
      expect(await statuses()).toEqual(['SENT', 'SENT', 'SENT']);
    });

    it('lets another claimer take rows over when their lease expires, and fences the first', async () => {
      await store.add(events(2));
      const short = { ...TUNING, leaseMs: 300 };
      const first = (await store.claims(short, 'r1').claim())!;
      const taker = store.claims(short, 'r2');
      expect(await taker.claim()).toBeNull();
      const second = await eventually(async () => {
        const claim = await taker.claim();
        expect(idsOf(claim).sort()).toEqual(idsOf(first).sort());
        return claim!;
      });
      const outcomes = store.outcomes(TUNING);
      expect(await outcomes.markSent(idsOf(first), first.token)).toBe(0);
      expect(await outcomes.markSent(idsOf(second), second.token)).toBe(2);
      expect(await statuses()).toEqual(['SENT', 'SENT']);
    });

    it('retries a failed row until maxAttempts, then makes it DEAD; a requeue makes it due again', async () => {
      await store.add(events(1));
      const claimer = store.claims(TUNING, 'r1');
      const outcomes = store.outcomes({ ...TUNING, maxAttempts: 2 });
      const firstTry = (await claimer.claim())!;
      expect(await outcomes.markFailed(firstTry.rows, firstTry.token, 'broker down')).toBe(1);
      expect((await store.rows())[0]).toMatchObject({ status: 'NEW', retryCount: 1 });
      const secondTry = await nextClaim(claimer);
      expect(secondTry.rows[0].retryCount).toBe(1);
      expect(await outcomes.markFailed(secondTry.rows, secondTry.token, 'broker down')).toBe(1);
      expect((await store.rows())[0]).toMatchObject({ status: 'DEAD', retryCount: 2 });
      expect(await claimer.claim()).toBeNull();

      expect(await store.requeueDead({ all: true })).toBe(1);
      expect((await store.rows())[0]).toMatchObject({ status: 'NEW', retryCount: 0 });
      expect(idsOf(await claimer.claim())).toHaveLength(1);
    });

    it('deletes SENT rows in chunks, and nothing that is not SENT', async () => {
      await store.add(events(5));
      await store.add([{ aggregateType: 'Crate', aggregateId: 'kept', aggregateVersion: 1 }]);
      const claim = (await store.claims({ ...TUNING, batchSize: 5 }, 'r1').claim())!;
      await store.outcomes(TUNING).markSent(idsOf(claim), claim.token);
      expect(await store.pruneSent({ olderThanMs: 3_600_000 })).toBe(0);
      const chunks: number[] = [];
      await eventually(async () => {
        chunks.push(await store.pruneSent({ olderThanMs: 0, chunkSize: 2, maxChunks: 1 }));
        expect(chunks.reduce((a, b) => a + b, 0)).toBe(5);
      });
      expect(Math.max(...chunks)).toBeLessThanOrEqual(2);
      expect((await store.rows()).map((r) => [r.aggregateId, r.status])).toEqual([['kept', 'NEW']]);
    });

    it('holds a later version back while an earlier one is being sent', async () => {
      const order = [1, 2].map((v) => ({
        aggregateType: 'Parcel',
        aggregateId: 'p',
        aggregateVersion: v,
      }));
      await store.add(order);
      const first = (await store.claims({ ...TUNING, batchSize: 1 }, 'r1').claim())!;
      expect(first.rows.map((r) => r.aggregateVersion)).toEqual([1]);
      const other = store.claims(TUNING, 'r2');
      expect(await other.claim()).toBeNull();
      await store.outcomes(TUNING).markSent(idsOf(first), first.token);
      const next = await nextClaim(other);
      expect(next.rows.map((r) => r.aggregateVersion)).toEqual([2]);
    });

    it('holds later versions back on every claim of a claimer, not only on its first', async () => {
      const later = store.claims(TUNING, 'r2');
      // Its first claim also looks for expired leases; the ones after it may take other paths.
      expect(await later.claim()).toBeNull();
      await store.add(
        [1, 2, 3].map((v) => ({ aggregateType: 'Parcel', aggregateId: 'w', aggregateVersion: v })),
      );
      const first = (await store.claims({ ...TUNING, batchSize: 1 }, 'r1').claim())!;
      expect(first.rows.map((r) => r.aggregateVersion)).toEqual([1]);
      expect(await later.claim()).toBeNull();
      await store.outcomes(TUNING).markSent(idsOf(first), first.token);
      const next = await nextClaim(later);
      expect(next.rows.map((r) => r.aggregateVersion)).toEqual([2, 3]);
    });

    it("claims an aggregate's versions together in version order", async () => {
      await store.add(
        [3, 1, 2].map((v) => ({ aggregateType: 'Parcel', aggregateId: 'q', aggregateVersion: v })),
      );
      const claim = await eventually(async () => {
        const c = await store.claims(TUNING, 'r1').claim();
        expect(c?.rows).toHaveLength(3);
        return c!;
      });
      expect(claim.rows.map((r) => r.aggregateVersion)).toEqual([1, 2, 3]);
    });

    const deadPolicies = [
      ['block', 'holds the later version back'],
      ['pass', 'lets the later version go'],
    ] as const;
    for (const [deadPolicy, what] of deadPolicies)
      it(`with deadPolicy ${deadPolicy}, a DEAD earlier version ${what}`, async () => {
        await store.add(
          [1, 2].map((v) => ({ aggregateType: 'Parcel', aggregateId: 'd', aggregateVersion: v })),
        );
        const tuning = { ...TUNING, deadPolicy, batchSize: 1 };
        const first = (await store.claims(tuning, 'r1').claim())!;
        await store.outcomes(TUNING).markDead(idsOf(first), first.token, 'poison');
        const later = store.claims(tuning, 'r2');
        if (deadPolicy === 'pass') {
          const claim = await nextClaim(later);
          expect(claim.rows.map((r) => r.aggregateVersion)).toEqual([2]);
        } else {
          // deadBlockedRecheckMs is 0: the held row is due again at once, and held again.
          for (let i = 0; i < 3; i++) expect(await later.claim()).toBeNull();
          expect((await store.rows()).map((r) => r.status)).toEqual(['DEAD', 'NEW']);
          expect(await store.requeueDead({ aggregateId: 'd' })).toBe(1);
          const claim = await nextClaim(later);
          expect(claim.rows.map((r) => r.aggregateVersion)).toEqual([1]);
        }
      });

    withFeature('row-locks')(
      'claims past the rows another transaction holds locked, without waiting for it',
      async () => {
        await store.add(events(4));
        const claimer = store.claims(TUNING, 'r1');
        const release = await fixture.lockRows!(store, 2);
        let whileLocked: Claim | null;
        try {
          whileLocked = await claimer.claim();
        } finally {
          await release();
        }
        const aggregatesOf = (claim: Claim | null) => claim?.rows.map((r) => r.aggregateId);
        expect(aggregatesOf(whileLocked)).toEqual(['a2', 'a3']);
        expect(aggregatesOf(await claimer.claim())).toEqual(['a0', 'a1']);
      },
    );

    withFeature('lost-connection')(
      'claims again after the server cut its connections, and loses no row',
      async () => {
        await store.add(events(4));
        const claimer = store.claims({ ...TUNING, batchSize: 2 }, 'r1');
        const first = (await claimer.claim())!;
        await fixture.cutConnections!(store);
        const second = await nextClaim(claimer);
        expect(new Set([...idsOf(first), ...idsOf(second)]).size).toBe(4);
        const outcomes = store.outcomes(TUNING);
        expect(await outcomes.markSent(idsOf(first), first.token)).toBe(2);
        expect(await outcomes.markSent(idsOf(second), second.token)).toBe(2);
        expect(await statuses()).toEqual(Array(4).fill('SENT'));
      },
    );

    faultCases(fixture, features, () => store, TUNING, runner);
  });
}
