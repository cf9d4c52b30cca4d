import { readHeaders } from '@outbox-inbox/messaging';
import { deploymentFaultOf } from '@outbox-inbox/database';
import { Logger } from '@nestjs/common';
import { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { Delivery } from '../apply/inbox-handler.port';
import { failureCode } from '../classify-failure';
import { describeFault, inboxRemedy } from '../deployment-remedy';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { BlockReason } from '../metrics/partition-blocks';
import { DeliveryControl, MessageRunner } from './message-runner';

/** What PartitionBatches works with: the transport's options, counters and runner. */
export interface PartitionBatchesDeps {
  options: ResolvedInboxOptions;
  metrics: InboxMetrics;
  /** Settles each message. */
  runner: MessageRunner;
  /** True once the transport closes: no message is started and no partition resumed. */
  isStopping(): boolean;
}

/**
 * The batches kafkajs hands the transport, one partition's at a time: each settled in order,
 * in chunks of `batchSize`, with its offsets committed as it goes; a partition blocked by a
 * transient failure is paused and resumed after a backoff.
 */
export class PartitionBatches {
  private readonly log = new Logger(PartitionBatches.name);
  private readonly resumeTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: PartitionBatchesDeps) {}

  /** Clears the pending resumes: the transport is closing. */
  stop(): void {
    for (const timer of this.resumeTimers) clearTimeout(timer);
    this.resumeTimers.clear();
  }

  /**
   * One partition's batch, in order. The offset after a settled message is committed every
   * `offsetCommitEvery` messages and at the end of the batch: committing less often than every
   * message only widens what a crash redelivers, and the inbox absorbs redeliveries.
   *
   * When a message is blocked by a transient failure, the partition is paused (its fetches
   * stop, the group and the other partitions go on), what settled before is committed, and
   * the partition resumes after a backoff: kafkajs fetches again from the first message not
   * resolved, which is the blocked one.
   */
  async consume(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    let settled: string | undefined;
    let sinceCommit = 0;
    // The batch's own commit, not consumer.commitOffsets: that one wraps a refusal for a
    // rebalance (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID) in a
    // KafkaJSNonRetriableError that kafkajs's runner does not recognise, so the consumer
    // crashed. This one lets the broker's error through, and the runner rejoins the group; the
    // offsets not committed are delivered again and the inbox absorbs them.
    const commit = async () => {
      if (settled === undefined || sinceCommit === 0) return;
      const offset = (BigInt(settled) + 1n).toString();
      await payload.commitOffsetsIfNecessary({
        topics: [{ topic, partitions: [{ partition, offset }] }],
      });
      sinceCommit = 0;
    };
    const control: DeliveryControl = {
      // A failed heartbeat (rebalance under way) must not fail the message.
      heartbeat: () => heartbeat().catch(() => undefined),
      isStopping: () => this.deps.isStopping(),
    };
    const { batchSize, offsetCommitEvery } = this.deps.options;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; i += batchSize) {
      if (!isRunning() || isStale()) break;
      const chunk: Array<{ message: KafkaMessage; position: Delivery }> = [];
      for (let j = i; j < Math.min(i + batchSize, messages.length); j++) {
        const message = messages[j];
        chunk.push({
          message,
          position: {
            topic,
            partition,
            offset: message.offset,
            headers: readHeaders(message.headers),
          },
        });
      }
      try {
        await this.deps.runner.settleTogether(chunk, control);
      } catch (error) {
        if (!isBlocking(error)) throw error;
        // Blocked at chunk[0]: the lag counts it and everything after it, and keeps growing
        // with each retry round's fetch.
        const blockedAt = Number(chunk[0].message.offset);
        this.deps.metrics.recordLag(topic, partition, Number(batch.highWatermark) - blockedAt);
        await commit();
        this.pausePartition(topic, partition, error, pause);
        return;
      }
      if (this.deps.metrics.blocks.isBlocked(topic, partition)) {
        this.deps.metrics.blocks.clear(topic, partition);
        this.log.log(`${topic}/${partition} is making progress again; unblocked`);
      }
      settled = chunk[chunk.length - 1].message.offset;
      resolveOffset(settled);
      this.deps.metrics.recordLag(
        topic,
        partition,
        Number(batch.highWatermark) - Number(settled) - 1,
      );
      sinceCommit += chunk.length;
      if (sinceCommit >= offsetCommitEvery) {
        await commit();
        // Unlike during retries, a rebalance error here (or from the commit) is let through:
        // kafkajs's runner then ends this batch and rejoins, and the next owner of the partition
        // starts after the last committed offset.
        await heartbeat();
      }
    }
    await commit();
  }

  /** Pauses a blocked partition and resumes it after a backoff. */
  private pausePartition(
    topic: string,
    partition: number,
    error: InboxError,
    pause: EachBatchPayload['pause'],
  ): void {
    const { blocks } = this.deps.metrics;
    const reason = blockReason(error);
    // Said once per missing table, column or grant, not once per partition or round.
    const onset = reason.subject !== undefined && !blocks.isMissing(reason.subject);
    const waitMs = blocks.fail(topic, partition, reason);
    this.deps.metrics.pauses += 1;
    const resume = pause();
    const line = `${topic}/${partition} paused: ${error.message}; retrying in ${waitMs} ms (blocked for ${blocks.blockedSeconds().toFixed(1)} s)`;
    if (reason.cause === 'deadLetterRejected') {
      // Nothing heals this by itself: say so loudly, once per round.
      this.deps.metrics.deadLetterRejections += 1;
      this.log.error(line);
    } else if (reason.cause === 'deployment') {
      if (onset) {
        this.deps.metrics.deploymentFaults += 1;
        const fault = deploymentFaultOf(error.cause);
        const what = fault
          ? `${describeFault(fault)} (${fault.code}); ${inboxRemedy(fault)}`
          : error.message;
        this.log.warn(
          `the deployment is not complete: ${what}. ` +
            `${topic}/${partition} and every partition that needs it stay paused and are retried with backoff until then; nothing is dead-lettered and no offset is committed past the waiting message`,
        );
      }
    } else {
      this.log.warn(line);
    }
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      if (!this.deps.isStopping()) resume();
    }, waitMs);
    this.resumeTimers.add(timer);
  }
}

/** Why a blocking failure blocks, and what it misses. */
function blockReason(error: InboxError): BlockReason {
  const cause = error.cause as Error | undefined;
  const message = `${failureCode(cause)}: ${cause?.message ?? error.message}`;
  if (error.code === 'DEAD_LETTER_REJECTED') return { cause: 'deadLetterRejected', error: message };
  if (error.code !== 'DEPLOYMENT_FAULT') return { cause: 'dependency', error: message };
  const fault = deploymentFaultOf(cause);
  return {
    cause: 'deployment',
    subject: fault?.subject ?? failureCode(cause),
    error: message,
  };
}

/** A failure that pauses the partition instead of failing the consumer. */
function isBlocking(error: unknown): error is InboxError {
  return (
    error instanceof InboxError &&
    (error.code === 'DEPENDENCY_UNAVAILABLE' ||
      error.code === 'DEPLOYMENT_FAULT' ||
      error.code === 'DEAD_LETTER_REJECTED')
  );
}
