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
  ApiOperation,
} from '@nestjs/swagger';
import { OperatorAuditRecord } from '@outbox-inbox/database';
import {
  DegradedRead,
  invalidRequest,
  OperatorName,
  UNNAMED_OPERATOR,
  validInput,
} from '@outbox-inbox/messaging/http';
import { InboxError } from '../inbox.errors';
import { InboxDeliveryRecord } from '../operations/inbox-deliveries';
import {
  aggregatesOf,
  DeliveriesQuery,
  InboxAuditQuery,
  ReplayDeadLettersDto,
  SkipVersionDto,
} from './inbox-http.dto';
import { DeadLetterMessage, InboxDeadLetters } from '../operations/inbox-dead-letters';
import { InboxOperations } from '../operations/inbox-operations';
import { ReplayResult, targetTopicRule } from '../operations/replay-plan';
import { InboxStats } from '../operations/inbox-stats';
import { SkipVersionResult } from '../operations/skip-version';

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
  @ApiOperation({
    summary: 'The inbox at a glance: outcomes, parked events, open gaps, blocked partitions',
    description:
      '`inbox` counts the rows kept in the table (durable, until pruned); `sinceStart` counts what this process did since it started. `blocked` lists the partitions paused because a dependency is down (a blocked consumer). When the database cannot be reached: 503 with `sinceStart`, `blocked`, the dead-letter count and `degraded.cause`.',
  })
  @DegradedRead((c: InboxHttpController) => c.operations.knownStats())
  stats(): Promise<InboxStats> {
    return this.operations.stats();
  }

  /** The inbox rows of those aggregates' events. */
  @Get('deliveries')
  @ApiOperation({
    summary: 'Where each event of the given aggregates stands in this inbox',
    description:
      'For each `aggregate=Type:id` (up to 20): the inbox rows of its events, oldest first, with outcome (applied, ignored, stale, parked) and source partition and offset.',
  })
  @DegradedRead()
  deliveries(@Query(validInput) query: DeliveriesQuery): Promise<InboxDeliveryRecord[]> {
    return this.operations.deliveriesOf(aggregatesOf(query));
  }

  @Get('dead-letters')
  @ApiOperation({
    summary: "List the messages in this consumer's dead-letter topic",
    description:
      'Each dead letter with its event type and key, error code and text, attempts, source topic, partition and offset, when it failed and when it was replayed last (null if never). When the database cannot be reached: 503 with the list as the topic holds it (`deadLetters`, `replayedAt` unknown) and `degraded.cause`. Replay them with POST /inbox/dead-letters/replay.',
  })
  @DegradedRead(async (c: InboxHttpController) => ({
    deadLetters: await c.dead.listFromTopic(),
  }))
  deadLetters(): Promise<DeadLetterMessage[]> {
    return this.dead.list();
  }

  /**
   * Republishes the selected dead letters to this consumer's retry topic (read by its group
   * alone), and says what became of each selected one; `dryRun` only lists what it would
   * publish. 503 with the same report when a publish failed (the replay stopped there).
   */
  @Post('dead-letters/replay')
  @ApiOperation({
    summary: "Replay dead letters to this consumer's retry topic (dry run first)",
    description:
      'Republishes the selected dead letters to the retry topic that only this consumer group reads, so no other consumer sees them twice. `dryRun: true` lists what would be replayed and changes nothing. 503 with the same report when a publish failed (the replay stopped there).',
  })
  @HttpCode(200)
  @ApiOkResponse({ description: 'matched, replayed (or, on a dry run, would replay) and skipped' })
  async replay(
    @Body(validInput) body: ReplayDeadLettersDto,
    @OperatorName() who: string,
  ): Promise<ReplayResult> {
    const { reason, ...request } = body;
    const { retryTopic } = this.dead;
    if (body.targetTopic !== undefined && body.targetTopic !== retryTopic) {
      const rule = targetTopicRule(retryTopic);
      throw invalidRequest(rule, [{ path: 'targetTopic', constraints: { isRetryTopic: rule } }]);
    }
    let result: ReplayResult;
    try {
      result = await this.dead.replay(request, { who, reason });
    } catch (error) {
      if (error instanceof InboxError && error.code === 'INVALID_OPTIONS') {
        throw invalidRequest(error.message, [
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
  @ApiOperation({
    summary: 'Skip a missing version of an aggregate on purpose, with a reason',
    description:
      'For a gap that will never fill (the missing event is lost for good): records the skip with its reason, then applies the parked successors in order. 409 when the version is not the missing one; nothing changes then.',
  })
  @HttpCode(200)
  @ApiOkResponse({ description: 'the skip recorded and the parked successors it drained' })
  @ApiConflictResponse({ description: 'the version is not the missing one (nothing changed)' })
  async skip(
    @Body(validInput) body: SkipVersionDto,
    @OperatorName() who: string,
  ): Promise<SkipVersionResult> {
    try {
      // Behind an auth guard, who is the token's name; only an app without one may say.
      const skippedBy = who === UNNAMED_OPERATOR ? body.skippedBy : who;
      return await this.operations.skipVersion({ ...body, skippedBy });
    } catch (error) {
      if (error instanceof InboxError && error.code === 'SKIP_REFUSED') {
        throw new ConflictException(error.message);
      }
      throw error;
    }
  }

  /** The operator actions on this inbox (replays, gap skips), newest first. */
  @Get('audit')
  @ApiOperation({
    summary: 'The operator audit log of this inbox: replays and gap skips, newest first',
    description:
      'Each replay (not dry runs) and gap skip taken through this API: when, the selector, how many messages or versions it affected, the reason given, and who (the name of the operator token used). `limit` records, newest first.',
  })
  audit(@Query(validInput) query: InboxAuditQuery): Promise<OperatorAuditRecord[]> {
    return this.operations.auditLog(query.limit);
  }

  @Post('prune')
  @ApiOperation({
    summary: 'Delete inbox rows older than the dedup window (retention)',
    description:
      'Records the prune watermark first (so an auditor can tell a pruned row from a lost one), then deletes in chunks. Parked rows stay: their inbox row is their duplicate guard.',
  })
  @HttpCode(200)
  async prune(): Promise<{ deleted: number }> {
    return { deleted: await this.operations.prune() };
  }
}
