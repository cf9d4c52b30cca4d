import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountType, CHART_OF_ACCOUNTS } from './domain/chart-of-accounts';
import {
  AccountBalanceView,
  JournalLineView,
  JournalView,
  OrderLedgerView,
} from './ledger.queries';
import { Mismatch, MismatchKind, ReconciliationReport } from './reconciliation-report';

// Response shapes for the OpenAPI document. Money is a decimal string of minor units, since
// sums of BIGINT columns can exceed what a JSON number holds exactly; ids are strings.

const MONEY = { example: '1999', description: 'minor units, decimal string' };

export class AccountBalanceDto implements AccountBalanceView {
  @ApiProperty({ example: '1100', enum: CHART_OF_ACCOUNTS.map((a) => a.code) }) code!: string;
  @ApiProperty({ example: 'Payment clearing' }) name!: string;
  @ApiProperty({ enum: ['ASSET', 'LIABILITY', 'EQUITY', 'REVENUE', 'EXPENSE'] }) type!: AccountType;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ ...MONEY, description: 'on the normal side of the account type' })
  balance!: string;
  @ApiProperty({ example: '42', description: 'bookings that moved this balance' }) version!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class AccountListDto {
  @ApiProperty({ type: [AccountBalanceDto] }) accounts!: AccountBalanceDto[];
}

export class JournalLineDto implements JournalLineView {
  @ApiProperty() lineNo!: number;
  @ApiProperty({ example: '1100' }) accountCode!: string;
  @ApiProperty({ example: 'Payment clearing' }) accountName!: string;
  @ApiProperty(MONEY) debit!: string;
  @ApiProperty(MONEY) credit!: string;
}

export class JournalDto implements JournalView {
  @ApiProperty({ example: '17' }) id!: string;
  @ApiProperty({ example: 'OrderPaid:42:4' }) sourceEventKey!: string;
  @ApiProperty({ example: 'OrderPaid' }) eventType!: string;
  @ApiProperty({ enum: ['PAYMENT', 'COUPON_GRANT', 'COUPON_REVOKE', 'REFUND'] }) kind!: string;
  @ApiProperty({ example: '42' }) orderId!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ ...MONEY, description: 'sum of the debits, equal to the sum of the credits' })
  total!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: [JournalLineDto] }) lines!: JournalLineDto[];
}

export class PaidOrderDto {
  @ApiProperty(MONEY) amount!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty() payOrderId!: string;
  @ApiProperty({ format: 'date-time' }) paidAt!: string;
}

export class OrderLedgerDto implements OrderLedgerView {
  @ApiProperty({ example: '42' }) orderId!: string;
  @ApiProperty({ type: PaidOrderDto, nullable: true }) paid!: PaidOrderDto | null;
  @ApiProperty({ type: [JournalDto] }) journals!: JournalDto[];
}

export class MismatchDto implements Mismatch {
  @ApiProperty({
    enum: [
      'PAID_WITHOUT_JOURNAL',
      'JOURNAL_WITHOUT_PAID_ORDER',
      'PAYMENT_AMOUNT_MISMATCH',
      'DUPLICATE_PAYMENT_JOURNAL',
      'UNBALANCED_JOURNAL',
      'BALANCE_MISMATCH',
      'REFUND_WITHOUT_PAYMENT',
      'REFUND_OF_STALE_CANCEL',
      'REFUND_AMOUNT_MISMATCH',
      'DUPLICATE_REFUND',
      'REVOKE_WITHOUT_GRANT',
    ],
  })
  kind!: MismatchKind;
  @ApiPropertyOptional() orderId?: string;
  @ApiPropertyOptional() journalId?: string;
  @ApiPropertyOptional() accountCode?: string;
  @ApiPropertyOptional() currency?: string;
  @ApiPropertyOptional() expected?: string;
  @ApiPropertyOptional() actual?: string;
  @ApiProperty() detail!: string;
}

export class ReconciliationReportDto implements ReconciliationReport {
  @ApiProperty({ description: 'true when no mismatch was found' }) clean!: boolean;
  @ApiProperty({ format: 'date-time' }) checkedAt!: string;
  @ApiProperty({ description: 'orders seen paid in OrderPaid events' }) paidOrders!: number;
  @ApiProperty() paymentJournals!: number;
  @ApiProperty() journals!: number;
  @ApiProperty({ type: [MismatchDto] }) mismatches!: MismatchDto[];
  @ApiProperty({ description: 'a check listed only its first 500 rows' }) truncated!: boolean;
}
