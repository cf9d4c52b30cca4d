import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  Post,
  Query,
  ValidationPipe,
} from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { InboxError } from '../inbox.errors';
import { AggregateSelector, InboxDeliveryRecord } from './inbox-deliveries';
import { DeadLetterMessage, InboxOperations, ReplayResult } from './inbox-operations';
import { InboxStats } from './inbox-stats';
import { SkipVersionResult } from './skip-version';

class DeadLetterRef {
  @IsInt() @Min(0) partition!: number;
  @Matches(/^\d{1,19}$/) offset!: string;
}

/** Body of POST /inbox/dead-letters/replay; at least one selector. */
class ReplayDeadLettersDto {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DeadLetterRef)
  messages?: DeadLetterRef[];
  @IsOptional() @IsString() eventType?: string;
  @IsOptional() @IsString() errorCode?: string;
  @IsOptional() @IsBoolean() all?: boolean;
  @IsOptional() @IsBoolean() includeReplayed?: boolean;
  @IsOptional() @IsString() targetTopic?: string;
}

/** Body of POST /inbox/gaps/skip. */
class SkipVersionDto {
  @Matches(/^[A-Z][A-Za-z0-9]{1,31}$/) aggregateType!: string;
  @Matches(/^[A-Za-z0-9_-]{1,64}$/) aggregateId!: string;
  @IsInt() @Min(1) version!: number;
  @IsString() @Length(3, 500) reason!: string;
  @IsOptional() @Matches(/^[A-Za-z0-9._@-]{1,64}$/) skippedBy?: string;
}

const strict = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });

/** The inbox's operator API: stats, deliveries, dead letters, replay, skipping a gap, prune. */
@Controller('inbox')
export class InboxHttpController {
  constructor(private readonly operations: InboxOperations) {}

  @Get('stats')
  stats(): Promise<InboxStats> {
    return this.operations.stats();
  }

  /** `?aggregate=Order:42&aggregate=Fulfillment:7`: the inbox rows of those aggregates' events. */
  @Get('deliveries')
  deliveries(@Query('aggregate') aggregate?: string | string[]): Promise<InboxDeliveryRecord[]> {
    return this.operations.deliveriesOf(aggregatesOf(aggregate));
  }

  @Get('dead-letters')
  deadLetters(): Promise<DeadLetterMessage[]> {
    return this.operations.listDeadLetters();
  }

  @Post('dead-letters/replay')
  @HttpCode(200)
  async replay(@Body(strict) body: ReplayDeadLettersDto): Promise<ReplayResult> {
    try {
      return await this.operations.replay(body);
    } catch (error) {
      if (error instanceof InboxError && error.code === 'INVALID_OPTIONS') {
        throw new BadRequestException(error.message);
      }
      throw error;
    }
  }

  /** Skips the missing version of an aggregate on purpose: audited, successors drained. */
  @Post('gaps/skip')
  @HttpCode(200)
  async skip(@Body(strict) body: SkipVersionDto): Promise<SkipVersionResult> {
    try {
      return await this.operations.skipVersion(body);
    } catch (error) {
      if (error instanceof InboxError && error.code === 'SKIP_REFUSED') {
        throw new ConflictException(error.message);
      }
      throw error;
    }
  }

  @Post('prune')
  @HttpCode(200)
  async prune(): Promise<{ deleted: number }> {
    return { deleted: await this.operations.prune() };
  }
}

function aggregatesOf(query: string | string[] | undefined): AggregateSelector[] {
  const values = query === undefined ? [] : [query].flat();
  if (values.length === 0 || values.length > 20) {
    throw new BadRequestException('give 1 to 20 aggregate=Type:id parameters');
  }
  return values.map((value) => {
    const match = /^([A-Z][A-Za-z0-9]{1,31}):([A-Za-z0-9_-]{1,64})$/.exec(value);
    if (!match) throw new BadRequestException(`aggregate must be Type:id, got "${value}"`);
    return { aggregateType: match[1], aggregateId: match[2] };
  });
}
