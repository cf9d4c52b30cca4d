import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  Admission,
  aggregateKey,
  AggregateRef,
  GateRow,
  InboxBatchStore,
  InboxStore,
  ParkedEvent,
  StoredOutcome,
} from '../apply/inbox-store.port';
import { DeliveryPosition } from '../inbox.options';
import { InMemoryInboxTransaction } from './in-memory-inbox-tables';

/** A unique key taken: what the SQL stores' duplicate-key error is to the apply step. */
function duplicate(what: string): Error {
  return new Error(`in-memory inbox: duplicate key ${what}`);
}

/** One consumer's InboxStore on the twin's tables, with the rules of SqlInboxStore on MySQL. */
export class InMemoryInboxStore implements InboxStore<InMemoryInboxTransaction> {
  constructor(private readonly consumer: string) {}

  private gateKey(aggregate: AggregateRef): string {
    return `${this.consumer}|${aggregateKey(aggregate)}`;
  }

  async admit(
    tx: InMemoryInboxTransaction,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
    fastPath = true,
  ): Promise<Admission> {
    const { inbox, gates } = tx.tables;
    const key = `${this.consumer}|${envelope.eventKey}`;
    if (inbox.has(key)) return 'duplicate';
    inbox.set(key, {
      consumer: this.consumer,
      eventKey: envelope.eventKey,
      outcome,
      duplicateCount: 0,
    });
    if (!fastPath) return 'arrived';
    const gate = gates.get(this.gateKey(envelope));
    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    if (aggregateVersion === 1) {
      if (gate) return 'arrived';
      const row = {
        consumer: this.consumer,
        aggregateType,
        aggregateId,
        lastVersion: 1,
        parkedCount: 0,
      };
      gates.set(this.gateKey(envelope), row);
      return 'advanced';
    }
    if (!gate || gate.lastVersion !== aggregateVersion - 1 || gate.parkedCount !== 0)
      return 'arrived';
    gate.lastVersion = aggregateVersion;
    return 'advanced';
  }

  async recordDuplicates(tx: InMemoryInboxTransaction, eventKeys: string[]): Promise<void> {
    for (const eventKey of eventKeys) {
      const row = tx.tables.inbox.get(`${this.consumer}|${eventKey}`);
      if (row) row.duplicateCount += 1;
    }
  }

  async setOutcome(
    tx: InMemoryInboxTransaction,
    eventKey: string,
    outcome: StoredOutcome,
  ): Promise<void> {
    const row = tx.tables.inbox.get(`${this.consumer}|${eventKey}`);
    if (row) row.outcome = outcome;
  }

  async lockVersion(
    tx: InMemoryInboxTransaction,
    aggregateType: string,
    aggregateId: string,
  ): Promise<GateRow | undefined> {
    const gate = tx.tables.gates.get(this.gateKey({ aggregateType, aggregateId }));
    return gate && { lastVersion: gate.lastVersion, parkedCount: gate.parkedCount };
  }

  async saveVersion(
    tx: InMemoryInboxTransaction,
    aggregateType: string,
    aggregateId: string,
    row: GateRow,
    firstRow: boolean,
  ): Promise<void> {
    const key = this.gateKey({ aggregateType, aggregateId });
    const gates = tx.tables.gates;
    if (firstRow && gates.has(key)) throw duplicate(`gate ${key}`);
    if (!firstRow && !gates.has(key)) return;
    gates.set(key, { consumer: this.consumer, aggregateType, aggregateId, ...row });
  }

  async park(
    tx: InMemoryInboxTransaction,
    envelope: EventEnvelope,
    alreadyHandled: boolean,
    position: DeliveryPosition,
  ): Promise<void> {
    const key = `${this.gateKey(envelope)}|${envelope.aggregateVersion}`;
    const parked = tx.tables.parked;
    if (parked.has(key)) throw duplicate(`parked ${key}`);
    parked.set(key, {
      consumer: this.consumer,
      aggregateType: envelope.aggregateType,
      aggregateId: envelope.aggregateId,
      aggregateVersion: envelope.aggregateVersion,
      eventKey: envelope.eventKey,
      envelope: JSON.stringify(envelope),
      alreadyHandled,
      position: { ...position },
      parkedAt: Date.now(),
    });
  }

  async readyAggregates(tx: InMemoryInboxTransaction, limit: number): Promise<AggregateRef[]> {
    const { gates, parked } = tx.tables;
    return [...parked.values()]
      .filter((p) => p.consumer === this.consumer)
      .filter((p) => p.aggregateVersion === (gates.get(this.gateKey(p))?.lastVersion ?? -1) + 1)
      .sort((a, b) => a.parkedAt - b.parkedAt)
      .slice(0, limit)
      .map(({ aggregateType, aggregateId }) => ({ aggregateType, aggregateId }));
  }

  async takeParked(
    tx: InMemoryInboxTransaction,
    aggregateType: string,
    aggregateId: string,
    version: number,
    keep: (envelope: EventEnvelope) => boolean = () => false,
  ): Promise<ParkedEvent | undefined> {
    const key = `${this.gateKey({ aggregateType, aggregateId })}|${version}`;
    const row = tx.tables.parked.get(key);
    if (!row) return undefined;
    const envelope = JSON.parse(row.envelope) as EventEnvelope;
    if (keep(envelope)) return undefined;
    tx.tables.parked.delete(key);
    return { envelope, alreadyHandled: row.alreadyHandled, position: { ...row.position } };
  }
}

/** One consumer's InboxBatchStore on the twin's tables: all or none, as the SQL statements. */
export class InMemoryInboxBatchStore implements InboxBatchStore<InMemoryInboxTransaction> {
  private readonly single: InMemoryInboxStore;

  constructor(private readonly consumer: string) {
    this.single = new InMemoryInboxStore(consumer);
  }

  async existingKeys(tx: InMemoryInboxTransaction, keys: string[]): Promise<Set<string>> {
    return new Set(keys.filter((key) => tx.tables.inbox.has(`${this.consumer}|${key}`)));
  }

  async recordArrivals(
    tx: InMemoryInboxTransaction,
    arrivals: Array<{ envelope: EventEnvelope; outcome: StoredOutcome }>,
  ): Promise<void> {
    const keys = arrivals.map((a) => a.envelope.eventKey);
    const known = await this.existingKeys(tx, keys);
    if (known.size > 0 || new Set(keys).size < keys.length) {
      throw duplicate(`inbox ${[...known].join(', ') || 'within the run'}`);
    }
    for (const { envelope, outcome } of arrivals) {
      await this.single.admit(tx, envelope, outcome, false);
    }
  }

  async lockVersions(
    tx: InMemoryInboxTransaction,
    aggregates: AggregateRef[],
  ): Promise<Map<string, GateRow>> {
    const found = new Map<string, GateRow>();
    for (const aggregate of aggregates) {
      const row = await this.single.lockVersion(tx, aggregate.aggregateType, aggregate.aggregateId);
      if (row) found.set(aggregateKey(aggregate), row);
    }
    return found;
  }

  async saveVersions(
    tx: InMemoryInboxTransaction,
    rows: Array<AggregateRef & GateRow & { isNew: boolean }>,
  ): Promise<void> {
    const taken = rows.filter(
      (r) => r.isNew && tx.tables.gates.has(`${this.consumer}|${aggregateKey(r)}`),
    );
    if (taken.length > 0) throw duplicate(`gate ${taken.map(aggregateKey).join(', ')}`);
    for (const { aggregateType, aggregateId, lastVersion, parkedCount, isNew } of rows) {
      // Known rows are upserted, as the SQL store's INSERT … ON DUPLICATE KEY UPDATE does.
      const key = `${this.consumer}|${aggregateKey({ aggregateType, aggregateId })}`;
      if (!isNew) tx.tables.gates.delete(key);
      const row = { lastVersion, parkedCount };
      await this.single.saveVersion(tx, aggregateType, aggregateId, row, true);
    }
  }
}
