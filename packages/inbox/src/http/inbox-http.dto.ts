import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { PageLimit } from '@outbox-inbox/messaging/http';
import { DEAD_LETTER_CODES, DeadLetterCode } from '../inbox.errors';

const AGGREGATE = /^([A-Z][A-Za-z0-9]{1,31}):([A-Za-z0-9_-]{1,64})$/;

/** Query of GET /inbox/deliveries: `?aggregate=Parcel:42&aggregate=Shipment:7`. */
export class DeliveriesQuery {
  @ApiProperty({ type: [String], example: ['Parcel:42'], minItems: 1, maxItems: 20 })
  @Transform(({ value }: { value: unknown }) => (value === undefined ? value : [value].flat()))
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(AGGREGATE, { each: true, message: 'aggregate must be Type:id, e.g. Parcel:42' })
  aggregate!: string[];
}

/** A dead letter by its place in the dead-letter topic. */
export class DeadLetterRefDto {
  @ApiProperty({ minimum: 0, maximum: 100_000 })
  @IsInt()
  @Min(0)
  @Max(100_000)
  partition!: number;

  @ApiProperty({ example: '12', pattern: '^\\d{1,19}$' })
  @Matches(/^\d{1,19}$/, { message: 'offset must be a decimal offset' })
  offset!: string;
}

/** Body of POST /inbox/dead-letters/replay; at least one selector. */
export class ReplayDeadLettersDto {
  @ApiPropertyOptional({ type: [DeadLetterRefDto], maxItems: 1000 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => DeadLetterRefDto)
  messages?: DeadLetterRefDto[];

  @ApiPropertyOptional({ example: 'ParcelShipped' })
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9._-]{0,127}$/, { message: 'eventType must be an event type name' })
  eventType?: string;

  @ApiPropertyOptional({ enum: DEAD_LETTER_CODES })
  @IsOptional()
  @IsIn(DEAD_LETTER_CODES)
  errorCode?: DeadLetterCode;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  all?: boolean;

  @ApiPropertyOptional({ description: 'replay ones replayed before too' })
  @IsOptional()
  @IsBoolean()
  includeReplayed?: boolean;

  @ApiPropertyOptional({
    description: "the consumer's retry topic: replay the selected ones whatever their source",
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,249}$/, { message: 'targetTopic must be a topic name' })
  targetTopic?: string;

  @ApiPropertyOptional({ description: 'list what would be replayed; publish and record nothing' })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({ description: 'why, for the operator audit log', maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

/** Query of GET /inbox/audit. */
export class InboxAuditQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @PageLimit(1000)
  limit = 100;
}

/** Body of POST /inbox/gaps/skip: the version to skip on purpose, and why. */
export class SkipVersionDto {
  @ApiProperty({ example: 'Parcel', pattern: '^[A-Z][A-Za-z0-9]{1,31}$' })
  @Matches(/^[A-Z][A-Za-z0-9]{1,31}$/)
  aggregateType!: string;

  @ApiProperty({ example: '42', pattern: '^[A-Za-z0-9_-]{1,64}$' })
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  aggregateId!: string;

  @ApiProperty({ example: 3, minimum: 1 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  version!: number;

  @ApiProperty({ example: 'event lost upstream, ticket OPS-123', minLength: 3, maxLength: 500 })
  @IsString()
  @Length(3, 500)
  reason!: string;

  @ApiPropertyOptional({
    description:
      'who skipped it, for apps without an operator auth guard; behind one, the name of the operator token used',
    example: 'alice',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._@-]{1,64}$/)
  skippedBy?: string;
}

/** Turns `Type:id` selectors into their parts (DeliveriesQuery validated them). */
export function aggregatesOf(
  query: DeliveriesQuery,
): Array<{ aggregateType: string; aggregateId: string }> {
  return query.aggregate.map((value) => {
    const [, aggregateType, aggregateId] = AGGREGATE.exec(value) as RegExpExecArray;
    return { aggregateType, aggregateId };
  });
}
