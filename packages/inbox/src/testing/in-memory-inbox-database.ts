import { InboxBatchStore, InboxStore } from '../apply/inbox-store.port';
import { InMemoryInboxBatchStore, InMemoryInboxStore } from './in-memory-inbox-store';
import { copy, InMemoryInboxTransaction, Tables } from './in-memory-inbox-tables';
import { InboxStoreUnderTest, InboxTables } from './inbox-store.fixture';

/**
 * The in-memory twin of the inbox's tables: InboxStore and InboxBatchStore per consumer, with
 * the rules of the SQL stores (one row per event key and consumer, the gate's fast path, the
 * parking lot, all-or-none multi-row writes). Its transactions run one at a time, each on its
 * own copy of the tables, committed whole or dropped: a transaction that wants a lock another
 * one holds waits, as on a database, only for the whole transaction. For fast tests of the
 * apply step; it passes runInboxStoreContract, without fault features.
 */
export class InMemoryInboxDatabase implements InboxStoreUnderTest<InMemoryInboxTransaction> {
  private committed: Tables = { inbox: new Map(), gates: new Map(), parked: new Map() };
  private turn: Promise<void> = Promise.resolve();
  private waiting = 0;

  store(consumer: string): InboxStore<InMemoryInboxTransaction> {
    return new InMemoryInboxStore(consumer);
  }

  batchStore(consumer: string): InboxBatchStore<InMemoryInboxTransaction> {
    return new InMemoryInboxBatchStore(consumer);
  }

  async transaction<T>(work: (tx: InMemoryInboxTransaction) => Promise<T>): Promise<T> {
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise((resolve) => (release = resolve));
    this.waiting += 1;
    await previous;
    this.waiting -= 1;
    const tx = new InMemoryInboxTransaction(copy(this.committed));
    try {
      const result = await work(tx);
      this.committed = tx.end();
      return result;
    } finally {
      tx.end();
      release();
    }
  }

  async lockWaits(): Promise<number> {
    return this.waiting;
  }

  async tables(): Promise<InboxTables> {
    const { inbox, gates, parked } = copy(this.committed);
    return {
      inbox: [...inbox.values()],
      gates: [...gates.values()].map(({ consumer, aggregateType, aggregateId, ...row }) => ({
        consumer,
        aggregateType,
        aggregateId,
        lastVersion: row.lastVersion,
        parkedCount: row.parkedCount,
      })),
      parked: [...parked.values()].map((p) => ({
        consumer: p.consumer,
        aggregateType: p.aggregateType,
        aggregateId: p.aggregateId,
        aggregateVersion: p.aggregateVersion,
        eventKey: p.eventKey,
      })),
    };
  }

  async close(): Promise<void> {}
}
