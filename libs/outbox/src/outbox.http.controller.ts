import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { OutboxError } from './outbox.errors';
import { DeadOutboxRow, DeadRowFilter, OutboxOperations, OutboxStats } from './outbox-operations';

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
