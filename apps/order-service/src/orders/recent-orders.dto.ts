import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** The order lists of the ops console. `stuck`: CREATED or PAYING for longer than stuckAfterMs. */
export const ORDER_LISTS = ['all', 'paid', 'stuck', 'failed', 'cancelled'] as const;
export type OrderList = (typeof ORDER_LISTS)[number];

/** Query of GET /orders (the operator's lists). */
export class RecentOrdersQuery {
  @ApiPropertyOptional({ enum: ORDER_LISTS, default: 'all' })
  @IsOptional()
  @IsIn(ORDER_LISTS)
  status: OrderList = 'all';

  @ApiPropertyOptional({ description: 'an order id, or the start of one', example: '42' })
  @IsOptional()
  @Matches(/^\d{1,19}$/, { message: 'q must be (the start of) an order id' })
  q?: string;

  @ApiPropertyOptional({
    description: 'stuck: unfinished for longer than this (ms)',
    default: 60000,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(30 * 86_400_000)
  stuckAfterMs = 60_000;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit = 50;
}
