import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { PageLimit } from '@outbox-inbox/messaging/http';

const AGGREGATE_TYPE = /^[A-Z][A-Za-z0-9]{1,31}$/;
const AGGREGATE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ROW_ID = /^[1-9]\d{0,19}$/;

/** The fields a filter of DEAD rows may match: the same in the listing and in a requeue. */
export class DeadRowMatch {
  @ApiPropertyOptional({ example: 'ParcelShipped' })
  @IsOptional()
  @Length(1, 190)
  @Matches(/^[A-Za-z0-9._-]+$/)
  eventType?: string;

  @ApiPropertyOptional({ example: 'Parcel' })
  @IsOptional()
  @Matches(AGGREGATE_TYPE)
  aggregateType?: string;

  @ApiPropertyOptional({ example: '42' })
  @IsOptional()
  @Matches(AGGREGATE_ID)
  aggregateId?: string;
}

/** Query of GET /outbox/dead: a page, and the rows a requeue with the same filter would take. */
export class ListDeadQuery extends DeadRowMatch {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @PageLimit(1000)
  limit = 100;

  @ApiPropertyOptional({ description: 'rows after this id (keyset paging)', default: '0' })
  @IsOptional()
  @Matches(/^(0|[1-9]\d{0,19})$/, { message: 'afterId must be a row id' })
  afterId = '0';
}

/** Query of GET /outbox/audit. */
export class AuditQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @PageLimit(1000)
  limit = 100;
}

/** Path of GET /outbox/aggregates/:type/:id. */
export class AggregateParams {
  @ApiProperty({ example: 'Parcel', pattern: AGGREGATE_TYPE.source })
  @Matches(AGGREGATE_TYPE, { message: 'type must be a PascalCase aggregate type' })
  type!: string;

  @ApiProperty({ example: '42', pattern: AGGREGATE_ID.source })
  @Matches(AGGREGATE_ID, { message: 'id must be 1 to 64 of [A-Za-z0-9_-]' })
  id!: string;
}

/** Body of POST /outbox/prune. */
export class PruneOutboxDto {
  @ApiProperty({ description: 'delete SENT rows older than this (ms), at most 10 years' })
  @IsInt()
  @Min(0)
  @Max(10 * 366 * 86_400_000)
  olderThanMs!: number;
}

/** Body of POST /outbox/dead/requeue: at least one filter (the operations refuse none). */
export class RequeueDeadDto extends DeadRowMatch {
  @ApiPropertyOptional({ type: [String], maxItems: 1000, example: ['17'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @Matches(ROW_ID, { each: true, message: 'each id must be a row id' })
  ids?: string[];

  @ApiPropertyOptional({ enum: [true], description: 'every DEAD row' })
  @IsOptional()
  @Equals(true)
  all?: true;

  @ApiPropertyOptional({ description: 'why, for the operator audit log', maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}
