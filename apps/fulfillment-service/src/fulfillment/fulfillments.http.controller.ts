import { Controller, Get, NotFoundException, Param, ParseIntPipe, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { FulfillmentState } from './fulfillment';
import { FulfillmentRepository } from './fulfillment.repository';

type FulfillmentView = Omit<FulfillmentState, 'nextAttemptAt'> & { nextAttemptAt: string | null };

@ApiTags('fulfillments')
@Controller('fulfillments')
export class FulfillmentsHttpController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly fulfillments: FulfillmentRepository,
  ) {}

  @Get('stats')
  @ApiOperation({
    summary: 'Fulfillments by status; `stuck` counts FAILED ones with no retry left',
  })
  stats(): Promise<Record<string, number>> {
    return this.fulfillments.countByStatus(this.dataSource.manager);
  }

  @Get('stuck')
  @ApiOperation({ summary: 'FAILED fulfillments whose retries are used up: they need a person' })
  @ApiQuery({ name: 'limit', required: false })
  async stuck(
    @Query('limit', new ParseIntPipe({ optional: true })) limit = 100,
  ): Promise<FulfillmentView[]> {
    const rows = await this.fulfillments.listStuck(this.dataSource.manager, Math.min(limit, 1000));
    return rows.map(view);
  }

  @Get('orders/:orderId')
  @ApiOperation({ summary: "An order's fulfillment" })
  @ApiOkResponse({ description: 'The fulfillment' })
  async byOrder(@Param('orderId') orderId: string): Promise<FulfillmentView> {
    const found = await this.fulfillments.findByOrder(this.dataSource.manager, orderId);
    if (!found) throw new NotFoundException(`no fulfillment for order ${orderId}`);
    return view(found);
  }
}

function view(f: FulfillmentState): FulfillmentView {
  return { ...f, nextAttemptAt: f.nextAttemptAt?.toISOString() ?? null };
}
