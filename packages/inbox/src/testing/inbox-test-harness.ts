import { INestApplication, INestApplicationContext, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { envelopeHeaders, EventEnvelope } from '@outbox-inbox/messaging';
import { KafkaMessage } from 'kafkajs';
import { DataSource } from 'typeorm';
import { holdNewerSchema } from '../apply/hold-newer-schema';
import { Delivery } from '../apply/inbox-handler.port';
import { InboxOutcome } from '../apply/inbox-processor';
import { NestHandlers } from '../handlers/nest-handlers';
import { DeadLetterCode } from '../inbox.errors';
import { DeliveryPosition, InboxRetryPolicy, ResolvedInboxOptions } from '../inbox.options';
import { INBOX_DATA_SOURCE, INBOX_OPTIONS } from '../inbox.tokens';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { DeliveryControl, MessageRunner } from '../transport/message-runner';
import { InboxMessageScope } from '../transport/message-scope';
import { InboxTransport } from '../transport/inbox-transport';
import { CapturedDeadLetter, CapturedDeadLetters } from './captured-dead-letters';
import { applyStepOn, applyStepOnTwin } from './harness-apply-step';
import { RecordingInboxProcessor } from './recording-inbox-processor';
import { InMemoryInboxDatabase } from './in-memory-inbox-database';

/** What became of one delivery: the inbox's outcome, or the dead letter and its reason. */
export type InboxDeliveryResult =
  | {
      /** applied, ignored (a type no handler takes), stale, parked (out of order) or duplicate. */
      outcome: InboxOutcome;
      /** Parked successors this event set free and applied after it. */
      drained: number;
    }
  | {
      outcome: 'dead-lettered';
      /** The dead letter's inbox-error-code: INVALID_EVENT, NOT_JSON, NON_RETRYABLE, … */
      errorCode: DeadLetterCode;
      /** The failure's message. */
      error: string;
      attempts: number;
    };

/** One delivery made through the harness, in the order they were made. */
export interface HarnessDelivery {
  position: DeliveryPosition;
  /** The message value as delivered. */
  value: string;
  result: InboxDeliveryResult;
}

/** Where a delivery arrives; by default the first of the consumer's topics, partition 0. */
export interface DeliverAt {
  topic?: string;
  partition?: number;
  /** The Kafka headers; by default the envelope's own, as the outbox relay sends them. */
  headers?: Record<string, string>;
}

/** Options of InboxTestHarness.create. */
export interface InboxTestHarnessOptions {
  /**
   * In-place retries of a failing delivery. Default: the app's attempts, without the waits
   * between them (a dead letter after retries arrives at once, with the app's attempt count).
   */
  retry?: Partial<InboxRetryPolicy>;
  /**
   * The in-memory twin of the inbox's tables to run on instead of the app's DataSource: fast,
   * and no database needed; read its rows with `database.tables()`. The handlers' transaction
   * (`context.manager`) is then the twin's, not an EntityManager: for handlers whose effect is
   * not in the database (a call with an idempotency key, a message to another service).
   */
  database?: InMemoryInboxDatabase;
}

/**
 * Hands events to an application's own inbox handlers (its `@OnEvent` methods, through the
 * InboxModule it imports) in process, without Kafka, along the path a Kafka message takes:
 * decode and validate, one transaction on the app's DataSource with the inbox row, the version
 * gate, the handler and the parked successors, retries, and the dead-letter decision. Each
 * `deliver` answers what became of the event; dead letters are kept in `deadLetters` instead
 * of a topic.
 *
 * ```ts
 * const inbox = InboxTestHarness.create(app);
 * expect(await inbox.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
 * expect(await inbox.deliver(event)).toEqual({ outcome: 'duplicate', drained: 0 });
 * ```
 */
export class InboxTestHarness {
  /** Every delivery made, in order (MassTransit's "consumed" list). */
  readonly deliveries: HarnessDelivery[] = [];
  private readonly offsets = new Map<string, bigint>();
  private readonly never: DeliveryControl = {
    heartbeat: async () => undefined,
    isStopping: () => false,
  };

  private constructor(
    private readonly options: ResolvedInboxOptions,
    private readonly runner: MessageRunner,
    private readonly processor: RecordingInboxProcessor,
    private readonly captured: CapturedDeadLetters,
  ) {}

  /**
   * A harness on `app`'s inbox: its options, its DataSource, its handlers, its message scope
   * and its counters (InboxMetrics). `app` is the Nest application (NestFactory.create, or
   * a testing module's createNestApplication()), created or initialised but not listening:
   * the harness connects the InboxTransport to it, so that Nest registers the handlers on it,
   * unless the app did already. Kafka is never contacted.
   */
  static create(
    app: INestApplicationContext | INestApplication,
    options: InboxTestHarnessOptions = {},
  ): InboxTestHarness {
    // Looked up through ModuleRef: a missing provider throws there, where the app itself (when
    // made with abortOnError) would end the process instead.
    const refs = app.get(ModuleRef);
    const appOptions = inboxPart<ResolvedInboxOptions>(refs, INBOX_OPTIONS);
    const inboxOptions: ResolvedInboxOptions = {
      ...appOptions,
      retry: { ...appOptions.retry, baseDelayMs: 0, maxDelayMs: 0, ...options.retry },
    };
    const handlers = new NestHandlers(inboxOptions.consumer);
    handlers.attach(registeredHandlers(app, inboxPart(refs, InboxTransport)));
    const hold = holdNewerSchema(handlers, inboxOptions.registry);
    const { consumer } = inboxOptions;

    // The parts createInbox builds, on the app's DataSource or on the twin, with a list for a
    // dead-letter topic.
    const { dataSource, processor, batchProcessor } = options.database
      ? applyStepOnTwin(options.database, consumer, handlers, hold)
      : applyStepOn(inboxPart<DataSource>(refs, INBOX_DATA_SOURCE), consumer, handlers, hold);
    const captured = new CapturedDeadLetters();
    const runner = new MessageRunner({
      options: inboxOptions,
      dataSource,
      processor,
      batchProcessor,
      deadLetters: captured,
      metrics: inboxPart(refs, InboxMetrics),
      logger: new Logger('InboxTestHarness'),
      scope: messageScopeOf(refs),
    });
    return new InboxTestHarness(inboxOptions, runner, processor, captured);
  }

  /** The messages the inbox dead-lettered, in order, with their reasons. */
  get deadLetters(): readonly CapturedDeadLetter[] {
    return this.captured.messages;
  }

  /**
   * Delivers one event as the next message of its partition, and answers what became of it
   * once its transaction committed (or it was dead-lettered). `event` is an envelope (sent as
   * JSON, as the relay sends it), or a raw message value to test what the inbox does with bytes
   * that are no event. A failure the inbox would pause the partition for (a dependency down,
   * InboxError DEPENDENCY_UNAVAILABLE) rejects, as nothing became of the event yet.
   */
  async deliver(
    event: EventEnvelope | string | Buffer,
    at: DeliverAt = {},
  ): Promise<InboxDeliveryResult> {
    const envelope = typeof event === 'string' || Buffer.isBuffer(event) ? undefined : event;
    const value = envelope ? JSON.stringify(envelope) : event.toString();
    const headers = at.headers ?? (envelope ? envelopeHeaders(envelope) : {});
    const topic = at.topic ?? this.options.topics[0];
    const partition = at.partition ?? 0;
    const position: Delivery = {
      topic,
      partition,
      offset: this.nextOffset(topic, partition),
      headers,
    };
    const message: KafkaMessage = {
      key: envelope ? Buffer.from(envelope.aggregateId) : null,
      value: Buffer.isBuffer(event) ? event : Buffer.from(value),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
      offset: position.offset,
      timestamp: String(Date.now()),
      attributes: 0,
    };
    const deadBefore = this.captured.messages.length;
    await this.runner.settle(message, position, this.never);
    const result = this.resultOf(position, deadBefore);
    this.deliveries.push({
      position: { topic, partition, offset: position.offset },
      value,
      result,
    });
    return result;
  }

  private resultOf(position: Delivery, deadBefore: number): InboxDeliveryResult {
    const committed = this.processor.take(position);
    const { topic, partition, offset } = position;
    const dead = this.captured.messages
      .slice(deadBefore)
      .find(
        ({ reason: r }) => r.topic === topic && r.partition === partition && r.offset === offset,
      );
    if (dead) {
      const { errorCode, error, attempts } = dead.reason;
      return { outcome: 'dead-lettered', errorCode, error, attempts };
    }
    if (!committed)
      throw new Error(`delivery ${position.offset} neither committed nor dead-lettered`);
    return { outcome: committed.outcome, drained: committed.drained };
  }

  private nextOffset(topic: string, partition: number): string {
    const key = `${topic}/${partition}`;
    const offset = this.offsets.get(key) ?? 0n;
    this.offsets.set(key, offset + 1n);
    return offset.toString();
  }
}

/**
 * The transport Nest registered the app's handlers on: the app's InboxTransport, connected to
 * the app here (as main.ts connects it, without starting it) when no handler is on it yet.
 */
function registeredHandlers(
  app: INestApplicationContext | INestApplication,
  transport: InboxTransport,
): InboxTransport {
  if (transport.getHandlers().size > 0) return transport;
  if (!('connectMicroservice' in app)) {
    throw new Error(
      "InboxTestHarness: no handler is registered on the InboxTransport; pass the Nest application (NestFactory.create, or a testing module's createNestApplication()), or connect the transport first: app.connectMicroservice({ strategy: app.get(InboxTransport) })",
    );
  }
  app.connectMicroservice({ strategy: transport });
  return transport;
}

/** The app's InboxMessageScope, when a global module provides one (as InboxModule injects it). */
function messageScopeOf(refs: ModuleRef): InboxMessageScope | undefined {
  try {
    return refs.get(InboxMessageScope, { strict: false });
  } catch {
    return undefined; // Nest throws for a provider the app does not have
  }
}

/** A part of the app's inbox; a clear error when the app does not import InboxModule. */
function inboxPart<T>(refs: ModuleRef, token: symbol | (abstract new (...args: never[]) => T)): T {
  try {
    return refs.get<unknown, T>(token, { strict: false });
  } catch (error) {
    throw new Error(
      'InboxTestHarness: the app has no inbox; import InboxModule.forRoot(…) in its module',
      { cause: error },
    );
  }
}
