import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PageLimit } from '@outbox-inbox/messaging/http';

/** Query of GET /fulfillments/stuck. */
export class StuckQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @PageLimit(1000)
  limit = 100;
}

/** Path of the routes under /fulfillments/orders/:orderId: an order id as events carry it. */
export class OrderIdParams {
  @ApiProperty({ example: '42', pattern: '^[A-Za-z0-9_-]{1,32}$' })
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'orderId must be 1-32 letters, digits, "_" or "-"' })
  orderId!: string;
}
