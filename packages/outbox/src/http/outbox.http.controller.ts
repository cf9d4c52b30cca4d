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
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OperatorAuditRecord } from '@outbox-inbox/database';
import { DegradedRead, OperatorName, validInput } from '@outbox-inbox/messaging/http';
import { OutboxError } from '../outbox.errors';
import {
  AggregateParams,
  AuditQuery,
  ListDeadQuery,
  PruneOutboxDto,
  RequeueDeadDto,
} from './outbox-http.dto';
import {
  AggregateOutboxRow,
  DeadOutboxRow,
  OutboxOperations,
} from '../operations/outbox-operations';
import { OutboxStats } from '../outbox-stats.port';

/** Operator endpoints of the outbox, mounted by OutboxModule in every service. */
@ApiTags('outbox')
@ApiBadRequestResponse({ description: 'invalid input (fieldErrors)' })
@Controller('outbox')
export class OutboxHttpController {
  constructor(private readonly operations: OutboxOperations) {}

  @Get('stats')
  @ApiOperation({
    summary: 'The outbox at a glance: backlog, oldest unsent age, DEAD rows',
    description:
      "Rows per unsent status (NEW, SENDING, DEAD), the age of the oldest unsent row, rows waiting to retry, aggregates held back behind a DEAD row, and this process's relay counters since it started (`relay`). When the database cannot be reached: 503 with the DEAD policy, the relay counters and `degraded.cause`.",
  })
  @DegradedRead((c: OutboxHttpController) => c.operations.knownStats())
  stats(): Promise<OutboxStats> {
    return this.operations.stats();
  }

  @Get('dead')
  @ApiOperation({
    summary: 'List DEAD rows: events the relay gave up publishing',
    description:
      'DEAD rows oldest first, `limit` per page, the next page after `afterId`; with `eventType`, `aggregateType` or `aggregateId`, only the rows POST /outbox/dead/requeue with the same filter would requeue. Each shows its event, aggregate, attempts and last error.',
  })
  @ApiOkResponse({ description: 'DEAD rows, oldest first' })
  @DegradedRead()
  listDead(@Query(validInput) query: ListDeadQuery): Promise<DeadOutboxRow[]> {
    const { limit, afterId, eventType, aggregateType, aggregateId } = query;
    return this.operations.listDead(limit, afterId, { eventType, aggregateType, aggregateId });
  }

  /** The operator actions on this outbox (requeues), newest first: when, what, how many, who. */
  @Get('audit')
  @ApiOperation({
    summary: 'The operator audit log of this outbox: requeues, newest first',
    description:
      'Each requeue taken through this API: when, the filter, how many rows it requeued, the reason given, and who (the name of the operator token used). `limit` records, newest first.',
  })
  audit(@Query(validInput) query: AuditQuery): Promise<OperatorAuditRecord[]> {
    return this.operations.auditLog(query.limit);
  }

  /** The outbox rows of one aggregate, e.g. GET /outbox/aggregates/Parcel/42. */
  @Get('aggregates/:type/:id')
  @ApiOperation({
    summary: 'The outbox rows of one aggregate, in version order',
    description:
      'Every row still kept for the aggregate (no payload): status, attempts, last error and when it was sent. Rows pruned by retention are not listed.',
  })
  @DegradedRead()
  ofAggregate(@Param(validInput) params: AggregateParams): Promise<AggregateOutboxRow[]> {
    return this.operations.rowsOfAggregate(params.type, params.id);
  }

  /** Deletes SENT rows older than `olderThanMs`, in chunks. */
  @Post('prune')
  @ApiOperation({
    summary: 'Delete SENT rows older than `olderThanMs` (retention)',
    description:
      'Deletes in chunks, each its own short transaction; NEW, SENDING and DEAD rows are never deleted. Answers how many rows were deleted.',
  })
  @HttpCode(200)
  async prune(@Body(validInput) body: PruneOutboxDto): Promise<{ deleted: number }> {
    return { deleted: await this.operations.pruneSent({ olderThanMs: body.olderThanMs }) };
  }

  /** DEAD → NEW for the rows the filter selects; 400 without a filter. Audited. */
  @Post('dead/requeue')
  @ApiOperation({
    summary: 'Requeue DEAD rows: DEAD → NEW, so the relay publishes them again',
    description:
      "The rows the filter selects (ids, eventType, aggregateType/aggregateId, or `all: true`) go back to NEW with their attempts reset, in their aggregate's order. 400 without a filter. Answers how many rows were requeued.",
  })
  @HttpCode(200)
  async requeue(
    @Body(validInput) body: RequeueDeadDto,
    @OperatorName() who: string,
  ): Promise<{ requeued: number }> {
    const { reason, ...filter } = body;
    try {
      return { requeued: await this.operations.requeueDead(filter, { who, reason }) };
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
