import type { PayCallbackAnswer } from './pay-callback.dto';
import { PAY_CALLBACK_TOLERANCE_SECONDS } from './pay-callback.signature';

/** What happened to one verified, well-formed notification; the controller maps it to HTTP. */
export type PayCallbackOutcome =
  /** Committed (or already committed before): answer 200 with `answer`. */
  | { kind: 'accepted'; answer: PayCallbackAnswer; repeat: boolean }
  | { kind: 'unknown-order' }
  | { kind: 'unknown-payment' }
  /**
   * Amount or currency differ from the order, or the notifyId was processed with other values
   * in a field the decision used (order, payment, amount, currency, status).
   */
  | { kind: 'mismatch'; message: string }
  /** The order cannot take this verdict (e.g. SUCCESS for a CANCELLED order). */
  | { kind: 'conflict'; message: string };

/**
 * A verified callback as its order's timeline shows it: accepted (it moved the order or
 * settled its payment), duplicate (a repeat, answered as before), late (signed outside the
 * window) or refused (nothing changed).
 */
export type PayCallbackVerdict = 'accepted' | 'duplicate' | 'late' | 'refused';

/** The verdict, the HTTP status the controller answers with, and why. */
export interface PayCallbackVerdictOf {
  verdict: PayCallbackVerdict;
  answerStatus: number;
  detail: string;
}

/** A verified callback signed outside the window: refused with 401, nothing changed. */
export const LATE_CALLBACK: PayCallbackVerdictOf = {
  verdict: 'late',
  answerStatus: 401,
  detail: `signed more than ${PAY_CALLBACK_TOLERANCE_SECONDS} s away from our clock; nothing changed`,
};

/**
 * The verdict on an outcome, or undefined when the callback names no order we know: then
 * there is no timeline to show it on.
 */
export function verdictOf(outcome: PayCallbackOutcome): PayCallbackVerdictOf | undefined {
  switch (outcome.kind) {
    case 'accepted':
      return outcome.repeat
        ? {
            verdict: 'duplicate',
            answerStatus: 200,
            detail: `a repeat, order already ${outcome.answer.orderStatus}; nothing changed`,
          }
        : { verdict: 'accepted', answerStatus: 200, detail: `order ${outcome.answer.orderStatus}` };
    case 'unknown-order':
      return undefined;
    case 'unknown-payment':
      return { verdict: 'refused', answerStatus: 404, detail: 'unknown payOrderId for this order' };
    case 'mismatch':
      return { verdict: 'refused', answerStatus: 422, detail: outcome.message };
    case 'conflict':
      return { verdict: 'refused', answerStatus: 409, detail: outcome.message };
  }
}
