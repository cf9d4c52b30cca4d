import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsISO4217CurrencyCode,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';

/** Body of POST /orders. */
export class CreateOrderDto {
  @ApiProperty({ example: 'u-1', minLength: 1, maxLength: 64 })
  @IsString()
  @Length(1, 64)
  userId!: string;

  @ApiProperty({ example: 1999, description: 'minor units (cents), 1 … 10^12' })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000_000)
  amount!: number;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217' })
  @IsISO4217CurrencyCode()
  currency!: string;
}

/** Body of POST /orders/:id/cancel (optional). */
export class CancelOrderDto {
  @ApiPropertyOptional({ example: 'customer request', maxLength: 256 })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  reason?: string;
}
