import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { FulfillmentState } from './domain/fulfillment';
import { FulfillmentRepository } from './fulfillment.repository';
import { OrderIdParams, StuckQuery } from './fulfillments-http.dto';
import { DegradedRead, validInput } from '@outbox-inbox/messaging/http';

type FulfillmentView = Omit<FulfillmentState, 'nextAttemptAt'> & { nextAttemptAt: string | null };

@ApiTags('fulfillments')
@Controller('fulfillments')
export class FulfillmentsHttpController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly fulfillments: FulfillmentRepository,
  ) {}

  @Get('stats')
  @DegradedRead()
  @ApiOperation({
    summary: 'Fulfillments by status; `stuck` counts FAILED ones with no retry left',
    description:
      'A count per status (PENDING, DONE, FAILED, ...) read from the table. When the database cannot be reached: 503 with `degraded.cause`.',
  })
  stats(): Promise<Record<string, number>> {
    return this.fulfillments.countByStatus(this.dataSource.manager);
  }

  @Get('stuck')
  @DegradedRead()
  @ApiOperation({
    summary: 'FAILED fulfillments whose retries are used up: they need a person',
    description:
      'Oldest first, up to `limit`, each with its order, attempts and last error. The chain does not move them again by itself.',
  })
  async stuck(@Query(validInput) query: StuckQuery): Promise<FulfillmentView[]> {
    const rows = await this.fulfillments.listStuck(this.dataSource.manager, query.limit);
    return rows.map(view);
  }

  @Get('orders/:orderId')
  @DegradedRead()
  @ApiOperation({
    summary: "An order's fulfillment",
    description: 'Its status, attempts, coupon and last error; 404 when the order has none yet.',
  })
  @ApiOkResponse({ description: 'The fulfillment' })
  async byOrder(@Param(validInput) { orderId }: OrderIdParams): Promise<FulfillmentView> {
    const found = await this.fulfillments.findByOrder(this.dataSource.manager, orderId);
    if (!found) throw new NotFoundException(`no fulfillment for order ${orderId}`);
    return view(found);
  }
}

function view(f: FulfillmentState): FulfillmentView {
  return { ...f, nextAttemptAt: f.nextAttemptAt?.toISOString() ?? null };
}
