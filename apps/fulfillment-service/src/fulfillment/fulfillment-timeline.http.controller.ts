import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { FulfillmentTimeline, FulfillmentTimelineReader } from './fulfillment-timeline';
import { OrderIdParams } from './fulfillments-http.dto';
import { DegradedRead, validInput } from '@outbox-inbox/messaging/http';

/** The fulfillment-service's part of an order's timeline, read by the order-service. */
@ApiTags('fulfillments')
@Controller('fulfillments')
export class FulfillmentTimelineHttpController {
  constructor(private readonly reader: FulfillmentTimelineReader) {}

  @Get('orders/:orderId/timeline')
  @DegradedRead()
  @ApiOperation({
    summary: "An order's fulfillment transitions, its outbox rows and the order events received",
    description:
      "What the order-service's timeline shows in the fulfillment lane: each transition, each outbox row published and each order event the inbox recorded, with times.",
  })
  timeline(@Param(validInput) { orderId }: OrderIdParams): Promise<FulfillmentTimeline> {
    return this.reader.read(orderId);
  }
}
