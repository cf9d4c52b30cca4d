import {
  OperatorActionAudit,
  OperatorAuditRecord,
  readOperatorAudit,
  recordOperatorAction,
} from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { DeadRowFilter, deadRowConditions } from '../store/dead-row-filter';
import { OutboxError } from '../outbox.errors';
import { OutboxState } from '../store/outbox-state';
import { OutboxQuery, OutboxSql } from '../store/sql/outbox-sql';
import { outboxSqlOf } from '../store/sql/outbox-sql-of';
import { DeadEventPolicy } from '../relay/outbox-relay.options';
import { OutboxRelayCounters, OutboxStats, OutboxStatsSource } from '../outbox-stats.port';

export type { DeadRowFilter } from '../store/dead-row-filter';

/** A DEAD row as listed for operators. */
export interface DeadOutboxRow {
  id: string;
  eventKey: string;
  eventType: string;
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  retryCount: number;
  lastError: string | null;
  /** The first 300 characters of the envelope JSON. */
  payloadPreview: string;
  createdAt: string;
  updatedAt: string;
}

/** An outbox row of one aggregate, as the order timeline shows it (no payload). */
export interface AggregateOutboxRow {
  id: string;
  eventKey: string;
  eventType: string;
  aggregateVersion: number;
  status: string;
  retryCount: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  nextRetryAt: string;
}

/** Retention settings for `pruneSent`. */
export interface PruneOptions {
  /** SENT rows whose last update is older than this are deleted. */
  olderThanMs: number;
  /** Rows per DELETE statement (each its own short transaction). Default 1,000. */
  chunkSize?: number;
  /** Stop after this many chunks, so one call stays bounded. Default 1,000. */
  maxChunks?: number;
}

/**
 * Operator actions on the outbox: stats, listing and requeueing DEAD rows, retention.
 */
export class OutboxOperations implements OutboxStatsSource {
  private readonly sql: OutboxSql;
  private readonly state: OutboxState;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deadPolicy: DeadEventPolicy,
    private readonly relayCounters?: () => OutboxRelayCounters,
  ) {
    this.sql = outboxSqlOf(dataSource);
    this.state = new OutboxState(dataSource);
  }

  async stats(): Promise<OutboxStats> {
    type Count = { n: string | number };
    const [byStatus, oldest, retrying, blocked] = await Promise.all([
      this.read<Count & { status: 'NEW' | 'SENDING' | 'DEAD' }>(this.sql.countByStatus()),
      this.read<{ age_ms: string | number | null }>(this.sql.oldestUnsentAge()),
      this.read<Count>(this.sql.retryingRows()),
      this.read<Count>(this.sql.aggregatesBlockedByDead()),
    ]);
    const backlog = { NEW: 0, SENDING: 0, DEAD: 0 };
    for (const row of byStatus) backlog[row.status] = Number(row.n);
    return {
      backlog,
      oldestUnsentAgeMs: Number(oldest[0]?.age_ms ?? 0),
      retryingRows: Number(retrying[0].n),
      dead: backlog.DEAD,
      aggregatesBlockedByDead: this.deadPolicy === 'block' ? Number(blocked[0].n) : 0,
      ...this.knownStats(),
    };
  }

  /**
   * What this process knows of its outbox without the database: the DEAD policy and its
   * relay's counters since start. `/outbox/stats` answers with it during an outage.
   */
  knownStats(): Pick<OutboxStats, 'deadPolicy' | 'relay'> {
    return {
      deadPolicy: this.deadPolicy,
      ...(this.relayCounters && { relay: this.relayCounters() }),
    };
  }

  /**
   * DEAD rows, oldest first; with `match`, only those a requeue with the same filter would
   * take (ids and `all` aside), so an operator sees what "requeue all matching" will do.
   */
  async listDead(
    limit = 100,
    afterId = '0',
    match: Omit<DeadRowFilter, 'ids' | 'all'> = {},
  ): Promise<DeadOutboxRow[]> {
    const rows = await this.read<Record<string, string | number | Date | null>>(
      this.sql.listDead(Math.min(Math.max(1, limit), 1_000), afterId, match),
    );
    return rows.map((r) => ({
      id: String(r.id),
      eventKey: String(r.event_key),
      eventType: String(r.event_type),
      aggregateType: String(r.aggregate_type),
      aggregateId: String(r.aggregate_id),
      aggregateVersion: Number(r.aggregate_version),
      retryCount: Number(r.retry_count),
      lastError: r.last_error === null ? null : String(r.last_error),
      payloadPreview: String(r.payload_preview),
      createdAt: new Date(r.created_at as Date).toISOString(),
      updatedAt: new Date(r.updated_at as Date).toISOString(),
    }));
  }

  /** Every outbox row of one aggregate (until retention prunes it), by version. */
  async rowsOfAggregate(aggregateType: string, aggregateId: string): Promise<AggregateOutboxRow[]> {
    const rows = await this.read<Record<string, string | number | Date | null>>(
      this.sql.rowsOfAggregate(aggregateType, aggregateId),
    );
    const iso = (v: unknown) => new Date(v as Date).toISOString();
    return rows.map((r) => ({
      id: String(r.id),
      eventKey: String(r.event_key),
      eventType: String(r.event_type),
      aggregateVersion: Number(r.aggregate_version),
      status: String(r.status),
      retryCount: Number(r.retry_count),
      lastError: r.last_error === null ? null : String(r.last_error),
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      sentAt: r.sent_at === null ? null : iso(r.sent_at),
      nextRetryAt: iso(r.next_retry_at),
    }));
  }

  /**
   * DEAD → NEW, due now, with a fresh retry count; the later events held back behind them
   * become due now too. Returns the number of rows requeued. With `audit`, the action is
   * recorded in the operator audit log in the same transaction.
   */
  async requeueDead(filter: DeadRowFilter, audit?: OperatorActionAudit): Promise<number> {
    if (deadRowConditions(filter).length === 0 && filter.all !== true) {
      throw new OutboxError(
        'OUTBOX_INVALID_FILTER',
        'requeueDead needs ids, eventType, aggregateType, aggregateId or all: true',
      );
    }
    return this.dataSource.transaction('READ COMMITTED', async (manager) => {
      const { sql, params } = this.sql.lockDeadAggregates(filter);
      const aggregates = (await manager.query(sql, params)) as Array<{
        aggregate_type: string;
        aggregate_id: string;
      }>;
      const requeued = await this.state.requeueDead(manager, filter);
      for (const a of aggregates) {
        await this.state.dueNow(manager, a.aggregate_type, a.aggregate_id);
      }
      if (audit) {
        await recordOperatorAction(manager, {
          area: 'outbox',
          action: 'outbox.requeue',
          target: filter,
          count: requeued,
          reason: audit.reason ?? null,
          who: audit.who,
        });
      }
      return requeued;
    });
  }

  /** The latest operator actions on this outbox, newest first. */
  auditLog(limit = 100): Promise<OperatorAuditRecord[]> {
    return readOperatorAudit(this.dataSource, 'outbox', Math.min(Math.max(1, limit), 1_000));
  }

  /**
   * Retention: deletes SENT rows sent more than `olderThanMs` ago in chunks of `chunkSize`,
   * each DELETE its own autocommit statement (deleteSent of OutboxState), so locks are held for
   * one chunk only. Returns the number of rows deleted.
   */
  async pruneSent(options: PruneOptions): Promise<number> {
    const chunkSize = options.chunkSize ?? 1_000;
    const maxChunks = options.maxChunks ?? 1_000;
    let deleted = 0;
    for (let chunk = 0; chunk < maxChunks; chunk++) {
      const chunkDeleted = await this.state.deleteSent(
        this.dataSource,
        options.olderThanMs,
        chunkSize,
      );
      deleted += chunkDeleted;
      if (chunkDeleted < chunkSize) break;
    }
    return deleted;
  }

  private async read<R>({ sql, params }: OutboxQuery): Promise<R[]> {
    return (await this.dataSource.query(sql, params)) as R[];
  }
}
