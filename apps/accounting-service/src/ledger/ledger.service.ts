import { Injectable, Logger } from '@nestjs/common';
import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1Payload,
  FulfillmentRevertedV1Payload,
  OrderCancelledV1Payload,
  OrderPaidV1Payload,
} from '@app/trading-events';
import { EntityManager } from 'typeorm';
import { LedgerCurrencies } from './ledger-currencies';
import { LedgerRepository, PaidOrderRecord } from './ledger.repository';
import {
  fulfillmentDonePosting,
  fulfillmentRevertedPosting,
  orderCancelledPosting,
  orderPaidPosting,
  Posting,
} from './domain/postings';

/** What booking an event did: a new journal, the journal it booked before, or nothing. */
export type BookingResult =
  | { status: 'BOOKED'; journalId: string }
  | { status: 'ALREADY_BOOKED'; journalId: string }
  | { status: 'NOTHING_TO_BOOK'; reason: string };

/**
 * Books events into the ledger. Each command runs entirely on the caller's transaction
 * (`manager`: the inbox's, so the inbox row, the journal, its lines and the balances commit
 * or roll back together); it touches the database only through it and may be retried whole.
 */
@Injectable()
export class LedgerService {
  private readonly logger = new Logger(LedgerService.name);

  constructor(
    private readonly repository: LedgerRepository,
    private readonly currencies: LedgerCurrencies,
  ) {}

  /** OrderPaid: books the payment and remembers the paid order for reconciliation. */
  async bookOrderPaid(
    manager: EntityManager,
    event: EventEnvelope<OrderPaidV1Payload>,
  ): Promise<BookingResult> {
    const { orderId, payOrderId, amount, currency, paidAt } = event.payload;
    return this.post(manager, orderPaidPosting(event), new Date(), {
      orderId,
      payOrderId,
      amount,
      currency,
      paidAt: new Date(paidAt),
      sourceEventKey: event.eventKey,
    });
  }

  /** OrderCancelled: books the refund owed when the order had been paid, else nothing. */
  async bookOrderCancelled(
    manager: EntityManager,
    event: EventEnvelope<OrderCancelledV1Payload>,
  ): Promise<BookingResult> {
    const paid = await this.repository.findPaidOrder(manager, event.payload.orderId);
    return this.post(manager, orderCancelledPosting(event, paid), new Date());
  }

  /** FulfillmentDone: books the coupon granted. */
  async bookFulfillmentDone(
    manager: EntityManager,
    event: EventEnvelope<FulfillmentDoneV1Payload>,
  ): Promise<BookingResult> {
    return this.post(manager, fulfillmentDonePosting(event), new Date());
  }

  /** FulfillmentReverted: reverses the coupon granted. */
  async bookFulfillmentReverted(
    manager: EntityManager,
    event: EventEnvelope<FulfillmentRevertedV1Payload>,
  ): Promise<BookingResult> {
    return this.post(manager, fulfillmentRevertedPosting(event), new Date());
  }

  /**
   * Books a posting; `paid` (OrderPaid) is remembered with the journal when it is booked. A
   * journal in a currency the ledger is not open in throws LedgerCurrencyNotOpenError.
   */
  private async post(
    manager: EntityManager,
    posting: Posting,
    now: Date,
    paid?: PaidOrderRecord,
  ): Promise<BookingResult> {
    if (posting.action === 'SKIP') return { status: 'NOTHING_TO_BOOK', reason: posting.reason };
    const { journal } = posting;
    await this.currencies.requireOpen(manager, journal.currency);
    const header = await this.repository.insertJournal(manager, journal, now, paid);
    if (!header.inserted) {
      this.logger.warn(`${journal.source.eventKey} was booked before as journal ${header.id}`);
      return { status: 'ALREADY_BOOKED', journalId: header.id };
    }
    this.logger.debug(`${journal.source.eventKey} booked as journal ${header.id}`);
    return { status: 'BOOKED', journalId: header.id };
  }
}
