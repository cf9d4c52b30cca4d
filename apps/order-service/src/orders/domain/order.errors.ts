import type { OrderAction, OrderStatus } from './order-state';

/**
 * Why the order refused a command. These are expected outcomes, returned as values by the
 * aggregate; the controllers map each code to an HTTP status.
 */
export type OrderRejection =
  | {
      code: 'ILLEGAL_TRANSITION';
      action: OrderAction;
      from: OrderStatus;
      message: string;
    }
  | {
      /** The notification names a payment this order did not start (or no longer waits for). */
      code: 'UNKNOWN_PAYMENT';
      payOrderId: string;
      message: string;
    }
  | {
      /** The notification's amount or currency differs from the order's. */
      code: 'AMOUNT_MISMATCH';
      expected: { amount: number; currency: string };
      received: { amount: number; currency: string };
      message: string;
    };

/** The code of an OrderRejection. */
export type OrderRejectionCode = OrderRejection['code'];

/**
 * Thrown inside a transaction when the order row changed between our read and our
 * compare-and-set write; the whole transaction is rolled back and run again on fresh state.
 */
export class OrderConcurrentUpdateError extends Error {
  readonly code = 'ORDER_CONCURRENT_UPDATE' as const;

  constructor(
    readonly orderId: string,
    readonly expectedVersion: number,
  ) {
    super(`order ${orderId} changed concurrently (expected version ${expectedVersion})`);
    this.name = 'OrderConcurrentUpdateError';
  }
}
