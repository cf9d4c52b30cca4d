import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { AccountListDto, OrderLedgerDto, ReconciliationReportDto } from './ledger.dto';
import { LedgerQueries } from './ledger.queries';
import { OrderIdPipe } from './order-id.pipe';
import { ReconciliationService } from './reconciliation.service';
import { DegradedRead } from '@outbox-inbox/messaging/http';

/** The ledger over HTTP: read-only; bookings arrive only as events through the inbox. */
@ApiTags('ledger')
@Controller('ledger')
export class LedgerHttpController {
  constructor(
    private readonly queries: LedgerQueries,
    private readonly reconciliation: ReconciliationService,
  ) {}

  @Get('accounts')
  @DegradedRead()
  @ApiOperation({
    summary: 'Balances of every account, per currency',
    description: 'Each account with its balance, in minor units, per currency.',
  })
  @ApiOkResponse({ type: AccountListDto })
  async listAccounts(): Promise<AccountListDto> {
    return { accounts: await this.queries.listAccounts() };
  }

  @Get('orders/:orderId')
  @DegradedRead()
  @ApiOperation({
    summary: 'The journals and lines booked for one order',
    description:
      'Every journal (payment, coupon grant) with its debit and credit lines; 404 when nothing is booked yet.',
  })
  @ApiParam({ name: 'orderId', example: '42' })
  @ApiOkResponse({ type: OrderLedgerDto })
  @ApiBadRequestResponse({ description: 'the order id is malformed' })
  @ApiNotFoundResponse({ description: 'the ledger has booked nothing for this order' })
  async findOrder(@Param('orderId', OrderIdPipe) orderId: string): Promise<OrderLedgerDto> {
    const order = await this.queries.findOrder(orderId);
    if (!order) {
      throw new NotFoundException({
        code: 'LEDGER_ORDER_UNKNOWN',
        message: `the ledger has nothing for order ${orderId}`,
      });
    }
    return order;
  }

  @Get('reconciliation')
  @DegradedRead()
  @ApiOperation({
    summary: 'Compare paid orders with payment journals; verify journals and balances',
    description:
      'Compares the paid orders seen in OrderPaid events with the payment journals, refunds and coupon reversals, checks that every journal balances and that every balance equals the sum of its lines, all in one consistent snapshot; `clean` is true when nothing disagrees.',
  })
  @ApiOkResponse({ type: ReconciliationReportDto })
  reconcile(): Promise<ReconciliationReportDto> {
    return this.reconciliation.reconcile();
  }
}
