import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OutboxError } from './outbox.errors';
import {
  AggregateParams,
  ListDeadQuery,
  outboxInput,
  PruneOutboxDto,
  RequeueDeadDto,
} from './outbox-http.dto';
import {
  AggregateOutboxRow,
  DeadOutboxRow,
  OutboxOperations,
  OutboxStats,
} from './outbox-operations';

/** Operator endpoints of the outbox, mounted by OutboxModule in every service. */
@ApiTags('outbox')
@ApiBadRequestResponse({ description: 'invalid input (fieldErrors)' })
@Controller('outbox')
export class OutboxHttpController {
  constructor(private readonly operations: OutboxOperations) {}

  @Get('stats')
  stats(): Promise<OutboxStats> {
    return this.operations.stats();
  }

  @Get('dead')
  @ApiOkResponse({ description: 'DEAD rows, oldest first' })
  listDead(@Query(outboxInput) query: ListDeadQuery): Promise<DeadOutboxRow[]> {
    return this.operations.listDead(query.limit, query.afterId);
  }

  /** The outbox rows of one aggregate, e.g. GET /outbox/aggregates/Parcel/42. */
  @Get('aggregates/:type/:id')
  ofAggregate(@Param(outboxInput) params: AggregateParams): Promise<AggregateOutboxRow[]> {
    return this.operations.rowsOfAggregate(params.type, params.id);
  }

  /** Deletes SENT rows older than `olderThanMs`, in chunks. */
  @Post('prune')
  @HttpCode(200)
  async prune(@Body(outboxInput) body: PruneOutboxDto): Promise<{ deleted: number }> {
    return { deleted: await this.operations.pruneSent({ olderThanMs: body.olderThanMs }) };
  }

  /** DEAD → NEW for the rows the filter selects; 400 without a filter. */
  @Post('dead/requeue')
  @HttpCode(200)
  async requeue(@Body(outboxInput) filter: RequeueDeadDto): Promise<{ requeued: number }> {
    try {
      return { requeued: await this.operations.requeueDead(filter) };
    } catch (error) {
      if (error instanceof OutboxError && error.code === 'OUTBOX_INVALID_FILTER') {
        throw new BadRequestException({
          statusCode: 400,
          error: 'Bad Request',
          message: error.message,
          code: error.code,
        });
      }
      throw error;
    }
  }
}
