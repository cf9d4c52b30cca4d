import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { FulfillmentState } from './domain/fulfillment';
import { validInput } from '@app/service-bootstrap';
import { FulfillmentRepository } from './fulfillment.repository';
import { OrderIdParams, StuckQuery } from './fulfillments-http.dto';

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
  async stuck(@Query(validInput) query: StuckQuery): Promise<FulfillmentView[]> {
    const rows = await this.fulfillments.listStuck(this.dataSource.manager, query.limit);
    return rows.map(view);
  }

  @Get('orders/:orderId')
  @ApiOperation({ summary: "An order's fulfillment" })
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
