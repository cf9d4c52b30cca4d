import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** Query of GET /ledger/orders/:orderId/timeline. */
export class LedgerTimelineQuery {
  @ApiPropertyOptional({ description: "the order's fulfillment", pattern: '^\\d{1,19}$' })
  @IsOptional()
  @Matches(/^\d{1,19}$/, { message: 'fulfillmentId must be a number' })
  fulfillmentId?: string;
}
