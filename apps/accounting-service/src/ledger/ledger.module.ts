import { Module } from '@nestjs/common';
import { LedgerHttpController } from './ledger.http.controller';
import { LedgerQueries } from './ledger.queries';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { ReconciliationService } from './reconciliation.service';

/** The double-entry ledger: booking (for the event consumers), reads and reconciliation. */
@Module({
  controllers: [LedgerHttpController],
  providers: [LedgerRepository, LedgerService, LedgerQueries, ReconciliationService],
  exports: [LedgerService],
})
export class LedgerModule {}
