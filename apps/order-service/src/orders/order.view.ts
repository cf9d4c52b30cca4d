import { ApiProperty } from '@nestjs/swagger';
import { Order, OrderStatus } from './domain/order';

const STATUSES: OrderStatus[] = ['CREATED', 'PAYING', 'PAID', 'CANCELLED', 'PAYMENT_FAILED'];

/** An order as the HTTP API shows it: ids as strings, money in minor units, times in ISO. */
export class OrderView {
  @ApiProperty({ example: '1001', description: 'bigint id, as a string' })
  id!: string;
  @ApiProperty({ example: 'u-1' })
  userId!: string;
  @ApiProperty({ example: 1999, description: 'minor units (cents)' })
  amount!: number;
  @ApiProperty({ example: 'EUR', description: 'ISO 4217' })
  currency!: string;
  @ApiProperty({ enum: STATUSES })
  status!: OrderStatus;
  @ApiProperty({ example: 1, description: 'number of the latest event of this order' })
  version!: number;
  @ApiProperty({ type: String, nullable: true, example: 'pay_4f1c…' })
  payOrderId!: string | null;
  @ApiProperty({ type: String, nullable: true })
  closeReason!: string | null;
  @ApiProperty({ example: '2026-12-01T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty()
  updatedAt!: string;
  @ApiProperty({ type: String, nullable: true })
  paidAt!: string | null;
  @ApiProperty({ type: String, nullable: true })
  cancelledAt!: string | null;
}

/** The view of an order. */
export function toOrderView(order: Order): OrderView {
  return {
    id: order.id,
    userId: order.userId,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    version: order.version,
    payOrderId: order.payOrderId,
    closeReason: order.closeReason,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
  };
}
