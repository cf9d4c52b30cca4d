import {
  Body,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { InboxError } from '../inbox.errors';
import { InboxDeliveryRecord } from './inbox-deliveries';
import {
  aggregatesOf,
  DeliveriesQuery,
  inboxInput,
  invalidInboxRequest,
  ReplayDeadLettersDto,
  SkipVersionDto,
} from './inbox-http.dto';
import {
  DeadLetterMessage,
  InboxDeadLetters,
  ReplayResult,
  targetTopicRule,
} from './inbox-dead-letters';
import { InboxOperations } from './inbox-operations';
import { InboxStats } from './inbox-stats';
import { SkipVersionResult } from './skip-version';

/** The inbox's operator API: stats, deliveries, dead letters, replay, skipping a gap, prune. */
@ApiTags('inbox')
@ApiBadRequestResponse({ description: 'invalid input (fieldErrors)' })
@Controller('inbox')
export class InboxHttpController {
  constructor(
    private readonly operations: InboxOperations,
    private readonly dead: InboxDeadLetters,
  ) {}

  @Get('stats')
  stats(): Promise<InboxStats> {
    return this.operations.stats();
  }

  /** The inbox rows of those aggregates' events. */
  @Get('deliveries')
  deliveries(@Query(inboxInput) query: DeliveriesQuery): Promise<InboxDeliveryRecord[]> {
    return this.operations.deliveriesOf(aggregatesOf(query));
  }

  @Get('dead-letters')
  deadLetters(): Promise<DeadLetterMessage[]> {
    return this.dead.list();
  }

  /**
   * Republishes the selected dead letters to this consumer's retry topic (read by its group
   * alone), and says what became of each selected one; `dryRun` only lists what it would
   * publish. 503 with the same report when a publish failed (the replay stopped there).
   */
  @Post('dead-letters/replay')
  @HttpCode(200)
  @ApiOkResponse({ description: 'matched, replayed (or, on a dry run, would replay) and skipped' })
  async replay(@Body(inboxInput) body: ReplayDeadLettersDto): Promise<ReplayResult> {
    const { retryTopic } = this.dead;
    if (body.targetTopic !== undefined && body.targetTopic !== retryTopic) {
      const rule = targetTopicRule(retryTopic);
      throw invalidInboxRequest(rule, [
        { path: 'targetTopic', constraints: { isRetryTopic: rule } },
      ]);
    }
    let result: ReplayResult;
    try {
      result = await this.dead.replay(body);
    } catch (error) {
      if (error instanceof InboxError && error.code === 'INVALID_OPTIONS') {
        throw invalidInboxRequest(error.message, [
          { path: '(root)', constraints: { selector: error.message } },
        ]);
      }
      throw error;
    }
    if (result.failed) throw new HttpException({ statusCode: 503, ...result }, 503);
    return result;
  }

  /** Skips the missing version of an aggregate on purpose: audited, successors drained. */
  @Post('gaps/skip')
  @HttpCode(200)
  @ApiOkResponse({ description: 'the skip recorded and the parked successors it drained' })
  @ApiConflictResponse({ description: 'the version is not the missing one (nothing changed)' })
  async skip(@Body(inboxInput) body: SkipVersionDto): Promise<SkipVersionResult> {
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
