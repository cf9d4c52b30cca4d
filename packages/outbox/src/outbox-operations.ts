import {
  OperatorAuditRecord,
  readOperatorAudit,
  recordOperatorAction,
} from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { OutboxError } from './outbox.errors';
import { OutboxState } from './outbox-state';
import { DeadEventPolicy } from './outbox-relay.options';
import { OutboxRelayCounters, OutboxStats, OutboxStatsSource } from './outbox-stats.port';

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

/** Which DEAD rows to requeue: by ids, by fields, or `all: true`. At least one is required. */
export interface DeadRowFilter {
  ids?: string[];
  eventType?: string;
  aggregateType?: string;
  aggregateId?: string;
  all?: boolean;
}

/** Who asked for an operator action, and why: what the audit log records beside the action. */
export interface OperatorActionAudit {
  who: string;
  reason?: string | null;
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
  constructor(
    private readonly dataSource: DataSource,
    private readonly deadPolicy: DeadEventPolicy,
    private readonly relayCounters?: () => OutboxRelayCounters,
  ) {}

  async stats(): Promise<OutboxStats> {
    const [byStatus, oldest, retrying, blocked] = await Promise.all([
      this.dataSource.query(
        `SELECT status, COUNT(*) AS n FROM t_outbox
         WHERE status IN ('NEW', 'SENDING', 'DEAD') GROUP BY status`,
      ) as Promise<Array<{ status: 'NEW' | 'SENDING' | 'DEAD'; n: string | number }>>,
      this.dataSource.query(
        `SELECT TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(3)) DIV 1000 AS age_ms
         FROM t_outbox WHERE status IN ('NEW', 'SENDING')`,
      ) as Promise<Array<{ age_ms: string | number | null }>>,
      this.dataSource.query(
        `SELECT COUNT(*) AS n FROM t_outbox WHERE status = 'NEW' AND retry_count > 0`,
      ) as Promise<Array<{ n: string | number }>>,
      this.dataSource.query(
        `SELECT COUNT(DISTINCT d.aggregate_type, d.aggregate_id) AS n
         FROM t_outbox d JOIN t_outbox w
           ON w.aggregate_type = d.aggregate_type AND w.aggregate_id = d.aggregate_id
          AND w.aggregate_version > d.aggregate_version AND w.status IN ('NEW', 'SENDING')
         WHERE d.status = 'DEAD'`,
      ) as Promise<Array<{ n: string | number }>>,
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
    const { where, params } = deadRowConditions(match);
    const rows = (await this.dataSource.query(
      `SELECT id, event_key, event_type, aggregate_type, aggregate_id, aggregate_version,
         retry_count, last_error, LEFT(payload, 300) AS payload_preview, created_at, updated_at
       FROM t_outbox WHERE status = 'DEAD' AND id > ? ${where.map((w) => `AND ${w}`).join(' ')}
       ORDER BY id LIMIT ?`,
      [afterId, ...params, Math.min(Math.max(1, limit), 1_000)],
    )) as Array<Record<string, string | number | Date | null>>;
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
    const rows = (await this.dataSource.query(
      `SELECT id, event_key, event_type, aggregate_version, status, retry_count, last_error,
         created_at, updated_at, sent_at, next_retry_at
       FROM t_outbox WHERE aggregate_type = ? AND aggregate_id = ?
       ORDER BY aggregate_version, id`,
      [aggregateType, aggregateId],
    )) as Array<Record<string, string | number | Date | null>>;
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
    const { where, params } = deadRowConditions(filter);
    if (where.length === 0 && filter.all !== true) {
      throw new OutboxError(
        'OUTBOX_INVALID_FILTER',
        'requeueDead needs ids, eventType, aggregateType, aggregateId or all: true',
      );
    }
    const condition = where.length > 0 ? `AND ${where.join(' AND ')}` : '';
    return this.dataSource.transaction('READ COMMITTED', async (manager) => {
      const aggregates = (await manager.query(
        `SELECT DISTINCT aggregate_type, aggregate_id FROM t_outbox
         WHERE status = 'DEAD' ${condition} FOR UPDATE`,
        params,
      )) as Array<{ aggregate_type: string; aggregate_id: string }>;
      const requeued = await OutboxState.requeueDead(manager, condition, params);
      for (const a of aggregates)
        await OutboxState.dueNow(manager, a.aggregate_type, a.aggregate_id);
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
   * each DELETE its own autocommit statement (OutboxState.deleteSent), so locks are held for
   * one chunk only. Returns the number of rows deleted.
   */
  async pruneSent(options: PruneOptions): Promise<number> {
    const chunkSize = options.chunkSize ?? 1_000;
    const maxChunks = options.maxChunks ?? 1_000;
    let deleted = 0;
    for (let chunk = 0; chunk < maxChunks; chunk++) {
      const chunkDeleted = await OutboxState.deleteSent(
        this.dataSource,
        options.olderThanMs,
        chunkSize,
      );
      deleted += chunkDeleted;
      if (chunkDeleted < chunkSize) break;
    }
    return deleted;
  }
}

/** The SQL conditions (and their values) of a filter of DEAD rows; `all` adds none. */
function deadRowConditions(filter: DeadRowFilter): { where: string[]; params: unknown[] } {
  const clauses: Array<[string, unknown]> = [];
  if (filter.ids?.length) clauses.push(['id IN (?)', filter.ids]);
  if (filter.eventType) clauses.push(['event_type = ?', filter.eventType]);
  if (filter.aggregateType) clauses.push(['aggregate_type = ?', filter.aggregateType]);
  if (filter.aggregateId) clauses.push(['aggregate_id = ?', filter.aggregateId]);
  return { where: clauses.map(([sql]) => sql), params: clauses.map(([, value]) => value) };
}
