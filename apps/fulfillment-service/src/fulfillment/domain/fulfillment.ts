/**
 * The fulfillment of one paid order: grant a coupon, once. A state machine with a row
 * version for compare-and-set writes, and an event counter so that the events it emits
 * (FulfillmentDone, FulfillmentReverted) carry gapless aggregate versions 1, 2, …
 *
 * INIT ──grant ok──▶ DONE ──order cancelled──▶ REVERTED
 *   │  ╲                 ▲
 *   │   grant failed──▶ FAILED ──retry ok──┘   (FAILED with no next attempt = stuck)
 *   └──order cancelled──▶ CANCELLED
 *
 * The article's DOING exists only inside the transaction that holds the row lock while the
 * coupon provider is called; it is never committed, so the table does not carry it.
 */
export type FulfillmentStatus = 'INIT' | 'DONE' | 'FAILED' | 'CANCELLED' | 'REVERTED';

export interface FulfillmentState {
  id: string;
  orderId: string;
  userId: string;
  status: FulfillmentStatus;
  /** Row version for compare-and-set updates. */
  version: number;
  /** Events emitted so far; the next event's aggregateVersion is eventVersion + 1. */
  eventVersion: number;
  /** The OrderPaid event key, used as the coupon provider's idempotency key. */
  grantKey: string;
  couponValue: number;
  currency: string;
  couponCode: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/** What the retry schedule says after a failed grant. */
export interface RetrySchedule {
  maxAttempts: number;
  /** Delay before attempt number `attempt + 1`. */
  delayAfter(attempt: number): number;
}

export type GrantDecision =
  | { kind: 'grant' }
  | { kind: 'nothing-to-do'; reason: 'already-done' | 'cancelled' | 'reverted' | 'stuck' };

/** Whether a fulfillment in this state should call the coupon provider now. */
export function decideGrant(f: FulfillmentState): GrantDecision {
  switch (f.status) {
    case 'INIT':
      return { kind: 'grant' };
    case 'FAILED':
      return f.nextAttemptAt === null
        ? { kind: 'nothing-to-do', reason: 'stuck' }
        : { kind: 'grant' };
    case 'DONE':
      return { kind: 'nothing-to-do', reason: 'already-done' };
    case 'CANCELLED':
      return { kind: 'nothing-to-do', reason: 'cancelled' };
    case 'REVERTED':
      return { kind: 'nothing-to-do', reason: 'reverted' };
  }
}

/** The coupon was granted: DONE, and one more event (FulfillmentDone). */
export function markGranted(f: FulfillmentState, couponCode: string): FulfillmentState {
  if (f.status !== 'INIT' && f.status !== 'FAILED') {
    throw new IllegalTransitionError(f.status, 'DONE');
  }
  return {
    ...f,
    status: 'DONE',
    version: f.version + 1,
    eventVersion: f.eventVersion + 1,
    couponCode,
    attempts: f.attempts + 1,
    nextAttemptAt: null,
    lastError: null,
  };
}

/**
 * The grant failed (provider down, timeout with unknown outcome, or a refusal): FAILED with
 * the next attempt scheduled, or with none once the attempts are used up (stuck). A refusal
 * that retrying cannot fix (`permanent`) is stuck at once.
 */
export function markGrantFailed(
  f: FulfillmentState,
  error: string,
  now: Date,
  schedule: RetrySchedule,
  permanent = false,
): FulfillmentState {
  if (f.status !== 'INIT' && f.status !== 'FAILED') {
    throw new IllegalTransitionError(f.status, 'FAILED');
  }
  const attempts = f.attempts + 1;
  const stuck = permanent || attempts >= schedule.maxAttempts;
  return {
    ...f,
    status: 'FAILED',
    version: f.version + 1,
    attempts,
    lastError: error.slice(0, 500),
    nextAttemptAt: stuck ? null : new Date(now.getTime() + schedule.delayAfter(attempts)),
  };
}

export type CancelDecision =
  { kind: 'cancel' } | { kind: 'revert'; couponCode: string } | { kind: 'nothing-to-do' };

/** The order was cancelled: cancel what has not been granted, compensate what has. */
export function decideCancel(f: FulfillmentState): CancelDecision {
  switch (f.status) {
    case 'INIT':
    case 'FAILED':
      return { kind: 'cancel' };
    case 'DONE':
      return { kind: 'revert', couponCode: f.couponCode ?? '' };
    case 'CANCELLED':
    case 'REVERTED':
      return { kind: 'nothing-to-do' };
  }
}

export function markCancelled(f: FulfillmentState): FulfillmentState {
  if (f.status !== 'INIT' && f.status !== 'FAILED') {
    throw new IllegalTransitionError(f.status, 'CANCELLED');
  }
  return { ...f, status: 'CANCELLED', version: f.version + 1, nextAttemptAt: null };
}

/** The coupon was revoked: REVERTED, and one more event (FulfillmentReverted). */
export function markReverted(f: FulfillmentState): FulfillmentState {
  if (f.status !== 'DONE') throw new IllegalTransitionError(f.status, 'REVERTED');
  return { ...f, status: 'REVERTED', version: f.version + 1, eventVersion: f.eventVersion + 1 };
}

/** A transition the state machine does not allow; a programming error, never user input. */
export class IllegalTransitionError extends Error {
  readonly code = 'ILLEGAL_TRANSITION' as const;

  constructor(
    readonly from: FulfillmentStatus,
    readonly to: FulfillmentStatus,
  ) {
    super(`fulfillment cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** Coupon value for a paid amount: `rateBps` basis points of it, at least one minor unit. */
export function couponValueFor(amount: number, rateBps: number): number {
  return Math.max(1, Math.floor((amount * rateBps) / 10_000));
}
