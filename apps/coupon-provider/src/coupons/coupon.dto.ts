import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsISO4217CurrencyCode, IsString, Length, Max, Min } from 'class-validator';

/** Body of POST /coupons/grants. */
export class GrantCouponDto {
  @ApiProperty({ example: 'u-1' })
  @IsString()
  @Length(1, 64)
  userId!: string;

  @ApiProperty({ example: '1001' })
  @IsString()
  @Length(1, 64)
  orderId!: string;

  @ApiProperty({ example: 500, description: 'coupon value in minor units' })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000_000)
  value!: number;

  @ApiProperty({ example: 'EUR' })
  @IsISO4217CurrencyCode()
  currency!: string;
}

/** A coupon as the API shows it. */
export class CouponView {
  @ApiProperty({ example: 'CPN-7K2M9Q4XH3TB' })
  couponCode!: string;
  @ApiProperty()
  idempotencyKey!: string;
  @ApiProperty()
  userId!: string;
  @ApiProperty()
  orderId!: string;
  @ApiProperty()
  value!: number;
  @ApiProperty()
  currency!: string;
  @ApiProperty({ enum: ['GRANTED', 'REVOKED'] })
  status!: 'GRANTED' | 'REVOKED';
  @ApiProperty()
  grantedAt!: string;
  @ApiProperty({ type: String, nullable: true })
  revokedAt!: string | null;
}

/** One idempotency key in the stats: how many coupons it produced, how many requests carried it. */
export class KeyStats {
  @ApiProperty()
  idempotencyKey!: string;
  @ApiProperty({ description: 'coupons granted under this key; more than 1 is a bug' })
  grants!: number;
  @ApiProperty({ description: 'requests that carried this key (replays and conflicts included)' })
  requests!: number;
}

/** GET /coupons/grants/stats. */
export class GrantStats {
  @ApiProperty()
  keys!: number;
  @ApiProperty()
  grants!: number;
  @ApiProperty()
  revoked!: number;
  @ApiProperty({ description: 'all grant requests, replays and conflicts included' })
  requests!: number;
  @ApiProperty({ description: 'keys that produced more than one coupon; empty unless broken' })
  keysWithSeveralGrants!: number;
  @ApiProperty({ type: [KeyStats] })
  perKey!: KeyStats[];
}
