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
import { OutboxError } from './outbox.errors';
import {
  AggregateOutboxRow,
  DeadOutboxRow,
  DeadRowFilter,
  OutboxOperations,
  OutboxStats,
} from './outbox-operations';

/** Operator endpoints of the outbox, mounted by OutboxModule in every service. */
@Controller('outbox')
export class OutboxHttpController {
  constructor(private readonly operations: OutboxOperations) {}

  @Get('stats')
  stats(): Promise<OutboxStats> {
    return this.operations.stats();
  }

  @Get('dead')
  listDead(
    @Query('limit') limit?: string,
    @Query('afterId') afterId?: string,
  ): Promise<DeadOutboxRow[]> {
    return this.operations.listDead(limit ? Number(limit) : 100, afterId ?? '0');
  }

  /** The outbox rows of one aggregate, e.g. GET /outbox/aggregates/Order/42. */
  @Get('aggregates/:type/:id')
  ofAggregate(@Param('type') type: string, @Param('id') id: string): Promise<AggregateOutboxRow[]> {
    if (!/^[A-Z][A-Za-z0-9]{1,31}$/.test(type) || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      throw new BadRequestException(
        'aggregate type must be PascalCase and id 1 to 64 [A-Za-z0-9_-]',
      );
    }
    return this.operations.rowsOfAggregate(type, id);
  }

  /** Body: `{ olderThanMs: number }`: deletes SENT rows older than that, in chunks. */
  @Post('prune')
  @HttpCode(200)
  async prune(@Body() body: unknown): Promise<{ deleted: number }> {
    const olderThanMs = (body as { olderThanMs?: unknown } | undefined)?.olderThanMs;
    if (typeof olderThanMs !== 'number' || !Number.isSafeInteger(olderThanMs) || olderThanMs < 0) {
      throw new BadRequestException('olderThanMs must be a non-negative integer');
    }
    return { deleted: await this.operations.pruneSent({ olderThanMs }) };
  }

  /** Body: `{ ids?: string[], eventType?, aggregateType?, aggregateId?, all?: true }`. */
  @Post('dead/requeue')
  @HttpCode(200)
  async requeue(@Body() filter: DeadRowFilter): Promise<{ requeued: number }> {
    try {
      return { requeued: await this.operations.requeueDead(filterOf(filter)) };
    } catch (error) {
      if (error instanceof OutboxError) throw new BadRequestException(error.message);
      throw error;
    }
  }
}

function filterOf(body: unknown): DeadRowFilter {
  const b = (body ?? {}) as Record<string, unknown>;
  const text = (v: unknown) =>
    typeof v === 'string' && v.length > 0 && v.length <= 190 ? v : undefined;
  const ids = Array.isArray(b.ids)
    ? b.ids.map(String).filter((id) => /^\d{1,20}$/.test(id))
    : undefined;
  return {
    ids,
    eventType: text(b.eventType),
    aggregateType: text(b.aggregateType),
    aggregateId: text(b.aggregateId),
    all: b.all === true,
  };
}
