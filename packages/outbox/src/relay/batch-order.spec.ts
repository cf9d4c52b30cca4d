import { EarlierUnsent, planBatch } from './batch-order';

const recheck = { blockedRecheckMs: 50, deadBlockedRecheckMs: 60_000 };
const row = (aggregateId: string, aggregateVersion: number, aggregateType = 'Parcel') => ({
  id: `${aggregateId}-${aggregateVersion}`,
  aggregateType,
  aggregateId,
  aggregateVersion,
});
const earlier = (
  aggregateId: string,
  aggregateVersion: number,
  extra: Partial<EarlierUnsent> = {},
): EarlierUnsent => ({
  aggregateType: 'Parcel',
  aggregateId,
  aggregateVersion,
  dueInMs: 0,
  dead: false,
  ...extra,
});

describe('planBatch', () => {
  it('sends an aggregate’s versions in ascending order, whatever order they were claimed in', () => {
    const plan = planBatch(
      [row('b', 2), row('a', 3), row('b', 1), row('a', 1), row('a', 2)],
      [],
      recheck,
    );
    expect(plan.sendable.map((r) => r.id)).toEqual(['a-1', 'a-2', 'a-3', 'b-1', 'b-2']);
    expect(plan.held).toEqual([]);
  });

  it('holds every version above an earlier unsent one outside the claim', () => {
    const plan = planBatch(
      [row('a', 1), row('a', 3), row('a', 4), row('b', 2)],
      [earlier('a', 2)],
      recheck,
    );
    expect(plan.sendable.map((r) => r.id)).toEqual(['a-1', 'b-2']);
    expect(plan.held.map((h) => h.row.id)).toEqual(['a-3', 'a-4']);
  });

  it('keeps aggregates of different types apart even when their ids are equal', () => {
    const plan = planBatch(
      [row('1', 2, 'Parcel'), row('1', 2, 'Shipment')],
      [earlier('1', 1)],
      recheck,
    );
    expect(plan.sendable.map((r) => r.aggregateType)).toEqual(['Shipment']);
  });

  it('rechecks after the blocker is due, after a short pause, or much later when it is DEAD', () => {
    const inBackoff = planBatch([row('a', 2)], [earlier('a', 1, { dueInMs: 4_000 })], recheck);
    const beingSent = planBatch([row('a', 2)], [earlier('a', 1, { dueInMs: 0 })], recheck);
    const dead = planBatch([row('a', 2)], [earlier('a', 1, { dead: true })], recheck);
    expect(inBackoff.held[0].retryInMs).toBe(4_000);
    expect(beingSent.held[0].retryInMs).toBe(50);
    expect(dead.held[0].retryInMs).toBe(60_000);
  });
});
