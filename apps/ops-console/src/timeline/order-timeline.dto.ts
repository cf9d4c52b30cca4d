import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

/** Path of GET /orders/:id/timeline. */
export class OrderTimelineParams {
  @ApiProperty({ example: '42', pattern: '^[1-9]\\d{0,18}$' })
  @Matches(/^[1-9]\d{0,18}$/, { message: 'order id must be a positive integer' })
  id!: string;
}
