import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Logger, LoggerService } from '@nestjs/common';
import { backoffDelay } from '@outbox-inbox/database';
import { DataSource, DataSourceOptions } from 'typeorm';
import { Claim, OutboxClaimer } from './outbox-claimer';
import { OutboxCommitNotifier } from './outbox-commit-notifier';
import { LeaseKeeper } from './lease-keeper';
import { OutboxFinalizer } from './outbox-finalizer';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxRelayOptions, resolveRelayOptions, worstSendTimeMs } from './outbox-relay.options';
import { KafkaOutboxPublisher, OutboxKafkaOptions } from './kafka-outbox-publisher';
import { publishTraced } from './outbox-tracing';
import { planPublish, toTopicBatches } from './publish-plan';

/** Everything a relay needs; `dataSource`, `topicFor` and `kafka` (or `publisher`) are required. */
export interface OutboxRelayConfig extends Partial<OutboxRelayOptions> {
  dataSource: DataSource;
  kafka?: OutboxKafkaOptions;
  /** Replaces the Kafka publisher (tests, benchmarks). */
  publisher?: OutboxPublisher;
  /** The topic an aggregate type's events go to, e.g. `(type) => \`shop.${type.toLowerCase()}.events\``. */
  topicFor: (aggregateType: string) => string;
  /** Wakes the relay when a transaction that wrote outbox rows commits in this process. */
  notifier?: OutboxCommitNotifier;
  logger?: LoggerService;
}

/** When the relay loop last went round, for readiness checks (epoch ms). */
export interface OutboxRelayHeartbeat {
  running: boolean;
  /** Start of the latest round. */
  lastTickAt: number;
  /** End of the wait the loop is in (poll interval or backoff); 0 while it works. */
  idleUntil: number;
}

/** Counters since the relay started. */
export interface OutboxRelayCounters {
  published: number;
  /** Failed publish attempts (rows), each retried later or made DEAD. */
  publishFailures: number;
  dead: number;
  /** Rows whose outcome this relay could not record because another relay took the lease. */
  leaseLost: number;
  /** Claims made ahead and handed back unsent: their lease no longer covered a send. */
  claimsHandedBack: number;
}

/**
 * Publishes committed outbox rows to Kafka: claim a batch, send it in one awaited request,
 * record the outcome under the claim's lease token; repeat while there is work, then wait for
 * a commit in this process or the poll interval. One per service process; several processes
 * share the table safely. A Nest provider (lifecycle hooks start and stop it) that can also be
 * constructed and driven directly.
 */
export class OutboxRelay {
  readonly options: OutboxRelayOptions;
  readonly instanceId: string;
  private readonly db: DataSource;
  private readonly claimer: OutboxClaimer;
  private readonly finalizer: OutboxFinalizer;
  private readonly publisher: OutboxPublisher;
  private readonly topicFor: (aggregateType: string) => string;
  private readonly logger: LoggerService;
  private readonly counters: OutboxRelayCounters = {
    published: 0,
    publishFailures: 0,
    dead: 0,
    leaseLost: 0,
    claimsHandedBack: 0,
  };
  private readonly dataSource: DataSource;
  /** Claims that may run at once: `claimsAhead`, and one own connection left for the outcome write. */
  private readonly claimsInFlight: number;
  private connecting?: Promise<unknown>;
  private running = false;
  private loop?: Promise<void>;
  private wakeRequested = false;
  private lastTickAt = 0;
  private idleUntil = 0;
  private wakeUp?: () => void;
  private unsubscribe?: () => void;

  constructor(config: OutboxRelayConfig) {
    const { dataSource, kafka, publisher, topicFor, notifier, logger, ...partial } = config;
    this.dataSource = dataSource;
    this.options = resolveRelayOptions(partial);
    this.instanceId =
      this.options.instanceId ??
      `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
    if (typeof topicFor !== 'function') {
      throw new Error('OutboxRelay needs `topicFor`: the topic of each aggregate type');
    }
    if (!publisher && !kafka) {
      throw new Error('OutboxRelay needs `kafka` (brokers, clientId) or a `publisher`');
    }
    this.publisher = publisher ?? new KafkaOutboxPublisher(kafka!, this.options);
    this.db =
      this.options.ownConnections > 0
        ? ownPool(dataSource, this.options.ownConnections)
        : dataSource;
    this.claimer = new OutboxClaimer(this.db, this.options, this.instanceId);
    const { claimsAhead, ownConnections } = this.options;
    this.claimsInFlight =
      ownConnections > 0 ? Math.max(1, Math.min(claimsAhead, ownConnections - 1)) : claimsAhead;
    this.finalizer = new OutboxFinalizer(this.db, this.options);
    this.topicFor = topicFor;
    this.logger = logger ?? new Logger(OutboxRelay.name);
    this.unsubscribe = notifier?.onCommit(() => this.wake());
  }

  /** Counters since start. */
  counts(): Readonly<OutboxRelayCounters> {
    return { ...this.counters };
  }

  /** Liveness of the loop: a round that started long ago and no wait means it is stuck. */
  heartbeat(): OutboxRelayHeartbeat {
    return { running: this.running, lastTickAt: this.lastTickAt, idleUntil: this.idleUntil };
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Graceful stop: claims nothing more, lets the in-flight batch finish and record its
   * outcome, hands back any row still leased by this relay, and closes the producer.
   */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
    try {
      if (this.db.isInitialized) {
        await this.finalizer.releaseLeases(this.claimer.liveLeaseTokens());
      }
    } catch (error) {
      // The leases expire by themselves; another relay claims the rows then.
      this.logger.warn?.(`could not release leases on stop: ${String(error)}`);
    }
    await this.publisher.disconnect();
    if (this.db !== this.dataSource && this.db.isInitialized) await this.db.destroy();
  }

  /** Runs the next round now instead of after the poll interval. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /** One round: claim, publish, record. Returns the number of rows claimed (0: nothing due). */
  async relayOnce(): Promise<number> {
    await this.connect();
    const claim = await this.claimer.claim();
    if (!claim) return 0;
    await this.publishClaim(claim);
    return claim.rows.length;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async publishClaim(claim: Claim): Promise<void> {
    const record = await this.sendClaim(claim);
    await record?.();
  }

  /**
   * Sends a claim's publishable rows (recording poison and blocked rows first) and returns the
   * function that records the send's outcome, so the loop can run that write while the next
   * batch is on the wire. Undefined when nothing was sent.
   */
  private async sendClaim(claim: Claim): Promise<(() => Promise<void>) | undefined> {
    const topics = new Set<string>();
    for (const row of claim.rows) {
      try {
        topics.add(this.topicFor(row.aggregateType));
      } catch {
        // planPublish turns it into a DEAD row with the reason.
      }
    }
    const missing = new Set(await this.missingTopics([...topics]));
    const plan = planPublish(
      claim.rows,
      (row) => this.topicFor(row.aggregateType),
      missing,
      this.options,
    );
    for (const { row, reason } of plan.poison) {
      this.countLease(1, await this.finalizer.markDead([row.id], claim.token, reason));
      this.counters.dead += 1;
      this.logger.error(`outbox row ${row.id} (${row.eventKey}) is DEAD: ${reason}`);
    }
    const blockedIds = plan.blocked.map((r) => r.id);
    if (blockedIds.length > 0) {
      this.countLease(
        blockedIds.length,
        await this.finalizer.release(blockedIds, claim.token, this.options.deadBlockedRecheckMs),
      );
    }
    if (plan.send.length === 0) return undefined;

    const rows = plan.send.map((s) => s.row);
    // The lease covers the whole send, however long kafkajs takes: extended now (a lost lease
    // abandons the send before anything is written) and while the send is in flight.
    const keeper = new LeaseKeeper(
      this.finalizer,
      rows.map((r) => r.id),
      claim.token,
      { ...this.options, maxSendMs: 3 * worstSendTimeMs(this.options) },
      (reason) => {
        this.logger.warn?.(`abandoning a send of ${rows.length} outbox rows: ${reason}`);
        void this.publisher.abort?.();
      },
    );
    if (!(await keeper.start())) {
      this.countLease(rows.length, 0);
      return undefined;
    }
    try {
      await publishTraced(toTopicBatches(plan.send), (batches) => this.publisher.publish(batches));
    } catch (error) {
      keeper.stop();
      if (keeper.lost) {
        this.countLease(rows.length, 0);
        return undefined;
      }
      this.counters.publishFailures += rows.length;
      const reason = `publish failed: ${describe(error)}`;
      this.logger.warn?.(`${rows.length} outbox rows not published, will retry: ${reason}`);
      return async () =>
        this.countLease(rows.length, await this.finalizer.markFailed(rows, claim.token, reason));
    }
    keeper.stop();
    this.counters.published += rows.length;
    const ids = rows.map((r) => r.id);
    return async () =>
      this.countLease(rows.length, await this.finalizer.markSent(ids, claim.token));
  }

  /** Unknown metadata is not a reason to kill rows: treat as "all present" and let send fail. */
  private async missingTopics(topics: string[]): Promise<string[]> {
    try {
      return await this.publisher.missingTopics(topics);
    } catch {
      return [];
    }
  }

  /** Opens the relay's own pool on first use (and again after a failed attempt). */
  private async connect(): Promise<void> {
    if (this.db.isInitialized) return;
    this.connecting ??= this.db.initialize().finally(() => (this.connecting = undefined));
    await this.connecting;
  }

  private countLease(expected: number, changed: number): void {
    if (changed < expected) {
      this.counters.leaseLost += expected - changed;
      this.logger.warn?.(
        `${expected - changed} outbox rows were taken over by another relay after this relay's ` +
          'lease expired; their outcome was left to that relay',
      );
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    // Claims started ahead of the batch at hand, oldest first; sent in this order.
    const ahead: Array<Promise<ClaimOutcome>> = [];
    // The outcome write of the batch sent last; at most one runs while the next batch is sent.
    let recording: Promise<boolean> = Promise.resolve(true);
    while (this.running) {
      this.lastTickAt = Date.now();
      this.idleUntil = 0;
      const outcome = await (ahead.shift() ??
        settle(this.connect().then(() => this.claimer.claim())));
      if ('error' in outcome) {
        failures += 1;
        this.logger.error(`outbox relay could not claim: ${describe(outcome.error)}`);
        await this.idle(backoffDelay(this.options.backoff, failures));
        continue;
      }
      failures = 0;
      const claim = outcome.claim;
      if (!claim) {
        // A claim made ahead may come back empty (its rows held behind a batch on the wire)
        // while later ones are still running: wait only when none is.
        if (ahead.length === 0) await this.idle(this.options.pollIntervalMs);
        continue;
      }
      if (!this.leaseCoversASend(claim)) {
        // It waited behind slow sends: another relay may take these rows over while this one
        // still delivers them. Hand them back unsent (due now) instead.
        this.counters.claimsHandedBack += 1;
        await this.releaseClaim(claim);
        continue;
      }
      // A full batch means more work is likely waiting: claim the next batches while this one
      // is on the wire, and record this batch's outcome while the next one is on the wire, so
      // database and Kafka time overlap while sends stay one at a time, in order. A claim
      // cannot take a later version of an aggregate that a batch before it holds: those rows
      // are SENDING, or still locked by that claim's transaction (SKIP LOCKED passes them by
      // and the earlier version, read as unsent, holds the later one back).
      const full = claim.full;
      while (this.running && full && ahead.length < this.claimsInFlight) {
        ahead.push(settle(this.claimer.claim()));
      }
      let record: (() => Promise<void>) | undefined;
      try {
        record = await this.sendClaim(claim);
      } catch (error) {
        // Recording poison rows failed (database gone): the lease expires, rows are reclaimed.
        this.logger.error(`outbox relay could not record a batch: ${describe(error)}`);
        await this.idle(backoffDelay(this.options.backoff, 1));
      }
      const recorded = await recording;
      recording = record ? this.record(record) : Promise.resolve(true);
      if (!recorded || !full) {
        if (!(await recording)) await this.idle(backoffDelay(this.options.backoff, 1));
        recording = Promise.resolve(true);
      }
    }
    await recording;
    for (const unused of await Promise.all(ahead.splice(0))) {
      if ('claim' in unused && unused.claim) await this.releaseClaim(unused.claim);
    }
  }

  /** Whether the claim's lease outlasts one more send, every kafkajs attempt included. */
  private leaseCoversASend(claim: Claim): boolean {
    const leaseLeftMs = claim.leasedAt + this.options.leaseMs - Date.now();
    return leaseLeftMs >= worstSendTimeMs(this.options);
  }

  /**
   * Hands a claim's rows back as NEW, due now. stop() also releases this relay's live leases,
   * so a failure here only delays those rows.
   */
  private async releaseClaim({ rows, token }: Claim): Promise<void> {
    await this.finalizer
      .release(
        rows.map((r) => r.id),
        token,
      )
      .catch(() => 0);
  }

  /** Runs an outcome write; false (logged) when the database refused it. */
  private record(write: () => Promise<void>): Promise<boolean> {
    return write().then(
      () => true,
      (error: unknown) => {
        // The lease expires and the rows are claimed again: a duplicate send, not a loss.
        this.logger.error(`outbox relay could not record a batch: ${describe(error)}`);
        return false;
      },
    );
  }

  /** Waits `ms`, or less when woken (a commit in this process, or stop). */
  private async idle(ms: number): Promise<void> {
    if (this.wakeRequested || !this.running) {
      this.wakeRequested = false;
      return;
    }
    this.idleUntil = Date.now() + ms;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.wakeUp = undefined;
    this.wakeRequested = false;
  }
}

/** A small pool of the relay's own on the same database as `dataSource`. */
function ownPool(dataSource: DataSource, connections: number): DataSource {
  const options = dataSource.options as DataSourceOptions & { extra?: Record<string, unknown> };
  return new DataSource({
    ...options,
    poolSize: connections,
    extra: { ...options.extra, connectionLimit: connections },
    entities: [],
    migrations: [],
    subscribers: [],
    migrationsRun: false,
    synchronize: false,
  } as DataSourceOptions);
}

type ClaimOutcome = { claim: Claim | null } | { error: unknown };

/** A claim as a value, so a prefetched claim that fails never becomes an unhandled rejection. */
function settle(claim: Promise<Claim | null>): Promise<ClaimOutcome> {
  return claim.then(
    (value) => ({ claim: value }),
    (error: unknown) => ({ error }),
  );
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { message?: string } };
  const cause = e?.cause?.message ? ` (cause: ${e.cause.message})` : '';
  return `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}${cause}`;
}
