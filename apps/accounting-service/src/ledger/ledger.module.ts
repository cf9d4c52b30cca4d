import { Module } from '@nestjs/common';
import { FulfillmentEventsConsumer } from './fulfillment-events.consumer';
import { LedgerHttpController } from './ledger.http.controller';
import { LedgerTimelineHttpController } from './ledger-timeline.http.controller';
import { LedgerCurrencies } from './ledger-currencies';
import { LedgerQueries } from './ledger.queries';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { OrderEventsConsumer } from './order-events.consumer';
import { ReconciliationService } from './reconciliation.service';

/** The double-entry ledger: event consumers that book journals, reads and reconciliation. */
@Module({
  controllers: [
    LedgerHttpController,
    LedgerTimelineHttpController,
    OrderEventsConsumer,
    FulfillmentEventsConsumer,
  ],
  providers: [
    LedgerRepository,
    LedgerCurrencies,
    LedgerService,
    LedgerQueries,
    ReconciliationService,
  ],
  exports: [LedgerService],
})
export class LedgerModule {}
