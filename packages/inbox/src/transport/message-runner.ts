import { EventEnvelope } from '@outbox-inbox/messaging';
import { backoffDelay, delay, deploymentFaultOf, runTransaction } from '@outbox-inbox/database';
import { LoggerService } from '@nestjs/common';
import { KafkaMessage } from 'kafkajs';
import { DataSource } from 'typeorm';
import { failureCode } from '../classify-failure';
import { deadLetterCode } from '../dead-letter/dead-letter-code';
import { DeadLetterPublisher } from '../dead-letter/dead-letter-publisher';
import { decodeEvent, isNewerSchema, isUnknownType } from '../decode-event';
import { InboxBatchProcessor } from '../apply/inbox-batch-processor';
import { Delivery } from '../apply/inbox-handler.port';
import { InboxOutcome, InboxProcessor } from '../apply/inbox-processor';
import { InboxError } from '../inbox.errors';
import { DeliveryPosition, ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { InboxHooks } from './inbox-hooks';
import { InboxMessageScope } from './message-scope';

/** What the runner needs from the Kafka consumer for the message at hand. */
export interface DeliveryControl {
  /** Keeps the group membership alive during long retries; never throws. */
  heartbeat(): Promise<void>;
  /** True once the consumer is stopping: retries stop, and the message is redelivered later. */
  isStopping(): boolean;
}

/** What a MessageRunner works with; built once, by createInbox. */
export interface MessageRunnerDeps {
  options: ResolvedInboxOptions;
  /** The DataSource of the inbox tables: each message (or batch) is one transaction on it. */
  dataSource: DataSource;
  /** The apply step, one message at a time and in batches. */
  processor: InboxProcessor;
  batchProcessor: InboxBatchProcessor;
  /** Where a message that cannot be applied goes (the dead-letter topic; a list in tests). */
  deadLetters: Pick<DeadLetterPublisher, 'publish'>;
  metrics: InboxMetrics;
  logger: LoggerService;
  /** The app's scope to settle each message in, when it provides one. */
  scope?: InboxMessageScope;
  /** Test hooks (InboxHooksModule); none in an application. */
  hooks?: InboxHooks;
}

interface Failure {
  error: unknown;
  attempts: number;
}

/**
 * Settles one Kafka message: decode, one transaction (retried whole, bounded, with
 * heartbeats), or the dead-letter topic when it cannot be applied. Once `settle` returns, the
 * message's offset may be committed; never before, so a crash anywhere leads to redelivery,
 * which the inbox absorbs.
 *
 * A failure the classifier calls transient never dead-letters: once the in-place retries are
 * spent, `settle` throws InboxError DEPENDENCY_UNAVAILABLE and the transport pauses the
 * partition and tries the message again later, for as long as it takes. A deployment fault (a
 * missing table, column or grant) does the same at once, as DEPLOYMENT_FAULT: retrying in place
 * cannot heal it.
 */
export class MessageRunner {
  private readonly options: ResolvedInboxOptions;
  private readonly metrics: InboxMetrics;
  private readonly logger: LoggerService;

  constructor(private readonly deps: MessageRunnerDeps) {
    this.options = deps.options;
    this.metrics = deps.metrics;
    this.logger = deps.logger;
  }

  settle(message: KafkaMessage, position: Delivery, control: DeliveryControl): Promise<void> {
    const settle = () => this.settleInContext(message, position, control);
    const { scope } = this.deps;
    return this.options.tracing.receive(position.headers, () =>
      scope ? scope.run(position.headers, settle) : settle(),
    );
  }

  private async settleInContext(
    message: KafkaMessage,
    position: Delivery,
    control: DeliveryControl,
  ): Promise<void> {
    const failure = await this.apply(message, position, control);
    // A dead-lettered message committed no transaction: the hook after a commit stays silent.
    if (failure) return this.deadLetter(message, position, failure, control);
    await this.afterCommit(position);
  }

  private async afterCommit({ topic, partition, offset }: DeliveryPosition): Promise<void> {
    const hook = this.deps.hooks?.afterTransactionCommit;
    if (hook) await hook({ topic, partition, offset });
  }

  /**
   * Batched mode: settles several messages of one partition in one transaction (retried whole
   * on transient errors). If it still fails, or a message cannot be decoded, the messages are
   * settled one by one instead, so a failing message is isolated and no other is lost.
   */
  async settleTogether(
    deliveries: Array<{ message: KafkaMessage; position: Delivery }>,
    control: DeliveryControl,
  ): Promise<void> {
    if (deliveries.length > 1) {
      throwIfStopping(control);
      try {
        const envelopes = deliveries.map((d) =>
          decodeEvent(d.message.value, this.options.registry),
        );
        const items = deliveries.map((d, i) => ({ envelope: envelopes[i], delivery: d.position }));
        const started = performance.now();
        const results = await runTransaction(this.deps.dataSource, (manager) =>
          this.deps.batchProcessor.process(manager, items),
        );
        const seconds = (performance.now() - started) / 1000;
        for (const [i, result] of results.entries()) {
          this.metrics.count(result.outcome, result.drained, seconds);
          this.countUnreadable(envelopes[i], result.outcome);
        }
        for (const { position } of deliveries) await this.afterCommit(position);
        return;
      } catch (error) {
        // A dependency is down (after runTransaction's own retries) or the deployment is half
        // done: each message would fail alike, so the partition is paused at the first of them.
        const kind = this.options.classifyFailure(error);
        if (kind === 'deployment')
          throw deploymentBlocked(error, `a batch of ${deliveries.length}`);
        if (kind === 'transient') throw blocked(error, `a batch of ${deliveries.length}`);
        this.metrics.batchFallbacks += 1;
        this.logger.warn(
          `batch of ${deliveries.length} failed (${failureCode(error)}); settling its messages one by one`,
        );
      }
    }
    for (const { message, position } of deliveries) await this.settle(message, position, control);
  }

  private async apply(
    message: KafkaMessage,
    position: Delivery,
    control: DeliveryControl,
  ): Promise<Failure | undefined> {
    let envelope: EventEnvelope;
    try {
      envelope = decodeEvent(message.value, this.options.registry);
    } catch (error) {
      return { error, attempts: 1 };
    }
    const { retry } = this.options;
    for (let attempt = 1; ; attempt++) {
      throwIfStopping(control);
      try {
        const started = performance.now();
        const result = await runTransaction(
          this.deps.dataSource,
          (manager) => this.deps.processor.process(manager, envelope, position),
          ONE_ATTEMPT,
        );
        this.metrics.count(result.outcome, result.drained, (performance.now() - started) / 1000);
        this.countUnreadable(envelope, result.outcome);
        return undefined;
      } catch (error) {
        const kind = this.options.classifyFailure(error);
        if (kind === 'permanent') return { error, attempts: attempt };
        if (kind === 'deployment') throw deploymentBlocked(error, envelope.eventKey);
        if (attempt >= retry.maxAttempts && kind === 'transient') {
          throw blocked(error, envelope.eventKey);
        }
        if (attempt >= retry.maxAttempts) {
          const exhausted = new InboxError(
            'RETRIES_EXHAUSTED',
            `gave up after ${attempt} attempts: ${(error as Error)?.message ?? String(error)}`,
            { cause: error },
          );
          return { error: exhausted, attempts: attempt };
        }
        this.metrics.retries += 1;
        this.logger.warn(
          `${envelope.eventKey} attempt ${attempt} failed (${failureCode(error)}), retrying: ${String((error as Error)?.message ?? error)}`,
        );
        await control.heartbeat();
        await delay(backoffDelay(retry, attempt));
        await control.heartbeat();
      }
    }
  }

  private async deadLetter(
    message: KafkaMessage,
    position: DeliveryPosition,
    failure: Failure,
    control: DeliveryControl,
  ): Promise<void> {
    const error = failure.error as Error | undefined;
    this.logger.error(
      `dead-lettering ${position.topic}/${position.partition}@${position.offset} after ${failure.attempts} attempt(s): ${error?.message ?? String(failure.error)}`,
    );
    await this.deps.deadLetters.publish(
      message,
      {
        error: error?.message ?? String(failure.error),
        errorCode: deadLetterCode(failure.error),
        attempts: failure.attempts,
        consumer: this.options.consumer,
        topic: position.topic,
        partition: position.partition,
        offset: position.offset,
        failedAt: new Date(),
      },
      async () => {
        throwIfStopping(control);
        await control.heartbeat();
      },
    );
    this.metrics.deadLettered += 1;
  }

  /** Events this consumer could not read in full: skipped (unknown type) or held (newer schema). */
  private countUnreadable(envelope: EventEnvelope, outcome: InboxOutcome): void {
    const { registry } = this.options;
    if (outcome === 'ignored' && isUnknownType(envelope, registry)) {
      this.metrics.unknownEventTypes += 1;
      this.logger.log(
        `${envelope.eventKey}: event type ${envelope.eventType} is unknown here; recorded and skipped`,
      );
    } else if (outcome === 'parked' && isNewerSchema(envelope, registry)) {
      this.metrics.heldNewerSchema += 1;
      this.logger.warn(
        `${envelope.eventKey}: schema version ${envelope.schemaVersion} is newer than this consumer knows; held (parked) with its aggregate's later events until a consumer that knows it runs`,
      );
    }
  }
}

/** The runner retries a message's transaction itself (with heartbeats): runTransaction must not. */
const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } as const;

/** Abandons a message while the consumer stops: it is redelivered, and the inbox absorbs it. */
function throwIfStopping(control: DeliveryControl): void {
  if (control.isStopping()) {
    throw new InboxError('STOPPING', 'the consumer is stopping; the message will be redelivered');
  }
}

/** The error that tells the transport to pause the partition and try again later. */
function blocked(error: unknown, what: string): InboxError {
  return new InboxError(
    'DEPENDENCY_UNAVAILABLE',
    `${what} failed for a transient reason (${failureCode(error)}): ${(error as Error)?.message ?? String(error)}`,
    { cause: error },
  );
}

/** The error that pauses the partition until a missing table, column or grant is in place. */
function deploymentBlocked(error: unknown, what: string): InboxError {
  const fault = deploymentFaultOf(error);
  const missing = fault ? `${fault.kind} ${fault.subject} (${fault.code})` : failureCode(error);
  return new InboxError(
    'DEPLOYMENT_FAULT',
    `${what} waits for the deployment: ${missing} is missing: ${(error as Error)?.message ?? String(error)}`,
    { cause: error },
  );
}
