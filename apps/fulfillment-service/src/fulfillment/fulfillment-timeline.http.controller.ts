import { BadRequestException, Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { FulfillmentTimeline, FulfillmentTimelineReader } from './fulfillment-timeline';

const ORDER_ID = /^[1-9]\d{0,18}$/;

/** The fulfillment-service's part of an order's timeline, read by the order-service. */
@ApiTags('fulfillments')
@Controller('fulfillments')
export class FulfillmentTimelineHttpController {
  constructor(private readonly reader: FulfillmentTimelineReader) {}

  @Get('orders/:orderId/timeline')
  @ApiOperation({
    summary: "An order's fulfillment transitions, its outbox rows and the order events received",
  })
  timeline(@Param('orderId') orderId: string): Promise<FulfillmentTimeline> {
    if (!ORDER_ID.test(orderId))
      throw new BadRequestException('orderId must be a positive integer');
    return this.reader.read(orderId);
  }
}
