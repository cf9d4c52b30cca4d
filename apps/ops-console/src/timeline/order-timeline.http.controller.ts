import { Controller, Get, Headers, NotFoundException, Param } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import { OrderTimeline } from './order-timeline';
import { OrderTimelineParams } from './order-timeline.dto';
import { OrderTimelineService } from './order-timeline.service';
import { DegradedRead } from '@outbox-inbox/messaging/http';

/** GET /orders/:id/timeline: the order's causal chain across every service. */
@ApiTags('orders')
@Controller('orders')
export class OrderTimelineHttpController {
  constructor(private readonly timelines: OrderTimelineService) {}

  @Get(':id/timeline')
  @ApiOperation({
    summary: "An order's causal chain across every service",
    description:
      "The order's transitions, outbox rows, the fulfillment's and the ledger's inbox deliveries and effects, in time order; each service's section is `ok` or `unavailable`.",
  })
  @DegradedRead()
  @ApiOkResponse({
    description: 'sections per service (each ok or unavailable) and events in time order',
  })
  @ApiBadRequestResponse({ description: 'the id is not an order id' })
  @ApiNotFoundResponse()
  async timeline(
    @Param() { id }: OrderTimelineParams,
    @Headers('authorization') authorization?: string,
  ): Promise<OrderTimeline> {
    const timeline = await this.timelines.read(id, authorization);
    if (!timeline) throw new NotFoundException('order not found');
    return timeline;
  }
}
