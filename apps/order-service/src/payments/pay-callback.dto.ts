import { ApiProperty } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';

/** The payment provider's notification: the body of POST /payments/callback. */
export class PayCallbackDto {
  @ApiProperty({ example: 'n-7f3a', description: "the provider's id of this notification" })
  @IsString()
  @Length(1, 64)
  notifyId!: string;

  @ApiProperty({ example: 'pay_4f1c…', description: 'the payment id POST /orders/:id/pay gave' })
  @IsString()
  @Length(1, 64)
  payOrderId!: string;

  @ApiProperty({ example: '1001' })
  @IsString()
  @Matches(/^[1-9]\d{0,18}$/, { message: 'orderId must be a decimal order id' })
  orderId!: string;

  @ApiProperty({ example: 1999, description: 'minor units; must equal the order amount' })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000_000)
  amount!: number;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217; must equal the order currency' })
  @IsISO4217CurrencyCode()
  currency!: string;

  @ApiProperty({ enum: ['SUCCESS', 'FAILED'] })
  @IsIn(['SUCCESS', 'FAILED'])
  status!: 'SUCCESS' | 'FAILED';

  @ApiProperty({ example: '2026-12-01T10:00:00Z' })
  @IsISO8601({ strict: true })
  paidAt!: string;
}

/**
 * Our answer to an accepted notification. It names the payment, not the notification, so every
 * repeat (same notifyId, or another notification of the payment that already settled the
 * order) gets exactly the same answer.
 */
export class PayCallbackAnswer {
  @ApiProperty({ example: 'SUCCESS', description: 'the provider stops retrying on this' })
  result!: 'SUCCESS';
  @ApiProperty()
  orderId!: string;
  @ApiProperty()
  payOrderId!: string;
  @ApiProperty({ example: 'PAID' })
  orderStatus!: string;
}
