import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';

/** Body of PUT /faults; omitted fields keep their current value. */
export class UpdateFaultsDto {
  @ApiPropertyOptional({ description: 'added latency per request, ms', maximum: 60000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  latencyMs?: number;

  @ApiPropertyOptional({ description: 'share of requests answered 503 (0…1)' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  errorRate?: number;

  @ApiPropertyOptional({ description: 'share of requests that commit, then lose the reply (0…1)' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  dropReplyRate?: number;

  @ApiPropertyOptional({ description: 'fail exactly the next n requests with 503' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  failNextRequests?: number;

  @ApiPropertyOptional({
    description: 'commit, then drop the reply of exactly the next n requests',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  dropNextReplies?: number;
}
