import { Logger, LoggerService } from '@nestjs/common';
import { backoffDelay } from '@outbox-inbox/database';
import { MessageTracing, openTelemetryTracing } from '@outbox-inbox/messaging';
import { BatchSender, describeError, RecordOutcome } from './batch-sender';
import { OutboxPublisher } from '../publisher/outbox-publisher';
import { OutboxRelayOptions, worstSendTimeMs } from './outbox-relay.options';
import { OutboxRelayCounters, OutboxRelayHeartbeat, OutboxRelayStats } from '../outbox-stats.port';
import { Claim, OutboxClaims, OutboxOutcomes } from '../store/outbox-store.port';
import { RelayConnections } from './relay-connections';
import { RelayFault, RelayFaults } from './relay-faults';
import { SchemaFaults } from './schema-faults';

/** What a relay works with; it builds none of it (createOutboxRelay or OutboxModule does). */
export interface OutboxRelayParts {
  /** Resolved options (resolveRelayOptions), and the owner recorded with each lease. */
  options: OutboxRelayOptions;
  instanceId: string;
  /** The connections `claims` and `outcomes` work on: opened on first use, closed on stop. */
  connections: RelayConnections;
  claims: OutboxClaims;
  outcomes: OutboxOutcomes;
  publisher: OutboxPublisher;
  /** The topic an aggregate type's events go to. */
  topicFor: (aggregateType: string) => string;
  /**
   * Wakes the relay when a transaction that wrote outbox rows commits: in this process
   * (OutboxCommitNotifier), or in any process (ListenNotifyWakeUp, PostgreSQL). Subscribed
   * while the relay runs.
   */
  notifier?: { onCommit(listener: () => void): () => void | Promise<void> };
  logger?: LoggerService;
  /** The PRODUCER span of each message sent. Default: openTelemetryTracing. */
  tracing?: MessageTracing;
}

type ClaimOutcome = { claim: Claim | null } | { error: unknown };

/**
 * Publishes committed outbox rows: claim a batch, hand it to the BatchSender, record the
 * outcome under the claim's lease token; repeat while there is work, then wait for a commit in
 * this process or the poll interval. One per service process; several processes share the
 * table safely. A Nest provider (lifecycle hooks start and stop it) that can also be driven
 * directly.
 */
export class OutboxRelay implements OutboxRelayStats {
  readonly options: OutboxRelayOptions;
  readonly instanceId: string;
  private readonly sender: BatchSender;
  private readonly logger: LoggerService;
  private claimsHandedBack = 0;
  private claimsWithRows = 0;
  private claimMsWithRows = 0;
  /** Schema and topic faults seen now; the claimer and the sender record and clear them. */
  private readonly relayFaults = new RelayFaults();
  /** A claim that meets a missing t_outbox, column or grant: one line, a fault, a backoff. */
  private readonly schemaFaults: SchemaFaults;
  /** Claims that may run at once: `claimsAhead`, and one own connection left for the outcome write. */
  private readonly claimsInFlight: number;
  private running = false;
  private loop?: Promise<void>;
  private wakeRequested = false;
  private lastTickAt = 0;
  private idleUntil = 0;
  private wakeUp?: () => void;
  private unsubscribe?: () => void | Promise<void>;

  constructor(private readonly parts: OutboxRelayParts) {
    this.options = parts.options;
    this.instanceId = parts.instanceId;
    this.logger = parts.logger ?? new Logger(OutboxRelay.name);
    this.schemaFaults = new SchemaFaults(this.relayFaults, this.logger);
    const { claimsAhead, ownConnections } = this.options;
    this.claimsInFlight =
      ownConnections > 0 ? Math.max(1, Math.min(claimsAhead, ownConnections - 1)) : claimsAhead;
    this.sender = new BatchSender({
      ...parts,
      logger: this.logger,
      tracing: parts.tracing ?? openTelemetryTracing,
      faults: this.relayFaults,
    });
  }

  /** Counters since start. */
  counts(): Readonly<OutboxRelayCounters> {
    return {
      ...this.sender.counts(),
      claimsHandedBack: this.claimsHandedBack,
      claimsWithRows: this.claimsWithRows,
      claimMsWithRows: this.claimMsWithRows,
    };
  }

  /** Liveness of the loop: a round that started long ago and no wait means it is stuck. */
  heartbeat(): OutboxRelayHeartbeat {
    return { running: this.running, lastTickAt: this.lastTickAt, idleUntil: this.idleUntil };
  }

  /** What holds rows back now: a missing table or grant, a missing or refused topic. */
  faults(): RelayFault[] {
    return this.relayFaults.list();
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.parts.notifier?.onCommit(() => this.wake());
    this.loop = this.run();
  }

  /**
   * Graceful stop: claims nothing more, lets the in-flight batch finish and record its
   * outcome, hands back any row still leased by this relay, and closes the producer.
   */
  async stop(): Promise<void> {
    const unsubscribed = this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
    const { connections, outcomes, claims, publisher } = this.parts;
    try {
      if (connections.isOpen) await outcomes.releaseLeases(claims.liveLeaseTokens());
    } catch (error) {
      // The leases expire by themselves; another relay claims the rows then.
      this.logger.warn?.(`could not release leases on stop: ${String(error)}`);
    }
    await publisher.disconnect();
    await connections.close();
    await unsubscribed;
  }

  /** Runs the next round now instead of after the poll interval. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /** One round: claim, publish, record. Returns the number of rows claimed (0: nothing due). */
  async relayOnce(): Promise<number> {
    await this.parts.connections.open();
    const claim = await this.parts.claims.claim();
    if (!claim) return 0;
    const record = await this.sender.send(claim);
    await record?.();
    return claim.rows.length;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async run(): Promise<void> {
    let failures = 0;
    // Claims started ahead of the batch at hand, oldest first; sent in this order.
    const ahead: Array<Promise<ClaimOutcome>> = [];
    // The outcome write of the batch sent last; at most one runs while the next batch is sent.
    let recording: Promise<boolean> = Promise.resolve(true);
    // The claim at hand started while the last batch's outcome was still being written.
    let claimedBesideRecording = false;
    while (this.running) {
      this.lastTickAt = Date.now();
      this.idleUntil = 0;
      const outcome = await (ahead.shift() ?? this.claimNext(true));
      if ('error' in outcome) {
        failures += 1;
        if (this.schemaFaults.failed(outcome.error)) {
          await this.idle(backoffDelay(SchemaFaults.backoff(this.options.backoff), failures));
          continue;
        }
        this.logger.error(`outbox relay could not claim: ${describeError(outcome.error)}`);
        await this.idle(backoffDelay(this.options.backoff, failures));
        continue;
      }
      failures = 0;
      this.schemaFaults.worked();
      const claim = outcome.claim;
      if (!claim) {
        // A claim made ahead may come back empty (its rows held behind a batch on the wire)
        // while later ones are still running: wait only when none is.
        if (ahead.length > 0) continue;
        if (claimedBesideRecording) {
          // The rows it was woken for may be later versions of an aggregate in the batch whose
          // outcome was being written (SENDING until then): claim again once it is written.
          claimedBesideRecording = false;
          if (!(await recording)) await this.idle(backoffDelay(this.options.backoff, 1));
          recording = Promise.resolve(true);
          continue;
        }
        await this.idle(this.options.pollIntervalMs);
        continue;
      }
      if (!this.leaseCoversASend(claim)) {
        // It waited behind slow sends: another relay may take these rows over while this one
        // still delivers them. Hand them back unsent (due now) instead.
        this.claimsHandedBack += 1;
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
        ahead.push(this.claimNext(false));
      }
      let record: RecordOutcome | undefined;
      try {
        record = await this.sender.send(claim);
      } catch (error) {
        // Recording poison rows failed (database gone): the lease expires, rows are reclaimed.
        this.logger.error(`outbox relay could not record a batch: ${describeError(error)}`);
        await this.idle(backoffDelay(this.options.backoff, 1));
      }
      const recorded = await recording;
      recording = record ? this.record(record) : Promise.resolve(true);
      claimedBesideRecording = false;
      if (recorded && !full && this.wakeRequested) {
        // A commit came in during this round: its rows are due now. Claim them while this
        // batch's outcome is written, as after a full batch, instead of after that write's
        // round trips (on a loaded machine each one waits for the event loop).
        this.wakeRequested = false;
        claimedBesideRecording = true;
      } else if (!recorded || !full) {
        if (!(await recording)) await this.idle(backoffDelay(this.options.backoff, 1));
        recording = Promise.resolve(true);
      }
    }
    await recording;
    for (const unused of await Promise.all(ahead.splice(0))) {
      if ('claim' in unused && unused.claim) await this.releaseClaim(unused.claim);
    }
  }

  /** The next claim as a value: a claim made ahead that fails is never an unhandled rejection. */
  private claimNext(open: boolean): Promise<ClaimOutcome> {
    const { connections, claims } = this.parts;
    const opened = open ? connections.open() : Promise.resolve();
    let started = 0;
    const claim = opened.then(() => {
      started = performance.now();
      return claims.claim();
    });
    return claim.then(
      (value) => {
        if (value) {
          this.claimsWithRows += 1;
          this.claimMsWithRows += performance.now() - started;
        }
        return { claim: value };
      },
      (error: unknown) => ({ error }),
    );
  }

  /** Whether the claim's lease outlasts one more send, every kafkajs attempt included. */
  private leaseCoversASend(claim: Claim): boolean {
    const leaseLeftMs = claim.leasedAt + this.options.leaseMs - Date.now();
    return leaseLeftMs >= worstSendTimeMs(this.options);
  }

  /** Hands a claim's rows back as NEW, due now (on failure stop() or lease expiry does). */
  private async releaseClaim({ rows, token }: Claim): Promise<void> {
    const ids = rows.map((r) => r.id);
    await this.parts.outcomes.release(ids, token).catch(() => 0);
  }

  /** Runs an outcome write; false (logged) when the database refused it. */
  private record(write: RecordOutcome): Promise<boolean> {
    return write().then(
      () => true,
      (error: unknown) => {
        // The lease expires and the rows are claimed again: a duplicate send, not a loss.
        this.logger.error(`outbox relay could not record a batch: ${describeError(error)}`);
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
