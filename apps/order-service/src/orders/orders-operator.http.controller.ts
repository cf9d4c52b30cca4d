import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { DegradedRead } from '@outbox-inbox/messaging/http';
import { OrderHistory, OrderHistoryReader } from './order-history';
import { RecentOrder, RecentOrdersReader } from './recent-orders';
import { RecentOrdersQuery } from './recent-orders.dto';

/** Path of GET /orders/:id/history. */
class OrderHistoryParams {
  @Matches(/^[1-9]\d{0,18}$/, { message: 'order id must be a positive integer' })
  id!: string;
}

/**
 * The operator's reads of orders: the lists and an order's history, as the ops console shows
 * them. Unlike the customer API beside it, these need the operator token, and the console
 * passes on the operator's own.
 */
@ApiTags('orders')
@Controller('orders')
export class OrdersOperatorHttpController {
  constructor(
    private readonly recent: RecentOrdersReader,
    private readonly histories: OrderHistoryReader,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Recent orders by list (paid, stuck, failed, cancelled), newest first',
    description:
      '`stuck`: CREATED or PAYING, unchanged for longer than `stuckAfterMs`; `failed`: PAYMENT_FAILED. `q` matches the start of the order id. Ordered by last change, newest first.',
  })
  @DegradedRead()
  @ApiOkResponse({ description: 'the orders of the list' })
  @ApiBadRequestResponse({ description: 'an unknown list or a malformed query (fieldErrors)' })
  list(@Query() query: RecentOrdersQuery): Promise<RecentOrder[]> {
    return this.recent.list(query);
  }

  @Get(':id/history')
  @ApiOperation({
    summary: "The order-service's records of one order",
    description:
      "The order, its verified pay callbacks, its transitions and its outbox rows: the part of the order's timeline this service holds.",
  })
  @ApiParam({ name: 'id', example: '42' })
  @DegradedRead()
  @ApiOkResponse({ description: 'order, callbacks, transitions and outbox rows' })
  @ApiBadRequestResponse({ description: 'the id is not an order id' })
  @ApiNotFoundResponse()
  async history(@Param() { id }: OrderHistoryParams): Promise<OrderHistory> {
    const history = await this.histories.read(id);
    if (!history) throw new NotFoundException('order not found');
    return history;
  }
}
