import { AggregateRef, GateRow, StoredOutcome } from '../apply/inbox-store.port';
import { DeliveryPosition } from '../inbox.options';

/** A row of the twin's t_inbox. */
export interface InboxRow {
  consumer: string;
  eventKey: string;
  outcome: StoredOutcome;
  duplicateCount: number;
}

/** A row of the twin's t_inbox_parked. */
export interface ParkedRow extends AggregateRef {
  consumer: string;
  aggregateVersion: number;
  eventKey: string;
  /** As JSON, as the SQL stores keep it: a taken event is a copy, never the parked object. */
  envelope: string;
  alreadyHandled: boolean;
  position: DeliveryPosition;
  parkedAt: number;
}

/** The inbox's three tables, keyed as their unique keys are. */
export interface Tables {
  inbox: Map<string, InboxRow>;
  gates: Map<string, GateRow & AggregateRef & { consumer: string }>;
  parked: Map<string, ParkedRow>;
}

/** A copy of `tables` that a transaction may change without touching the committed ones. */
export const copy = (tables: Tables): Tables => ({
  inbox: new Map([...tables.inbox].map(([k, row]) => [k, { ...row }])),
  gates: new Map([...tables.gates].map(([k, row]) => [k, { ...row }])),
  parked: new Map([...tables.parked].map(([k, row]) => [k, { ...row }])),
});

/** A transaction of the in-memory twin: its own copy of the tables, kept if it commits. */
export class InMemoryInboxTransaction {
  private ended = false;

  constructor(private readonly working: Tables) {}

  /** The transaction's tables; refused once it ended, as a closed connection would be. */
  get tables(): Tables {
    if (this.ended) throw new Error('this in-memory inbox transaction has ended');
    return this.working;
  }

  end(): Tables {
    this.ended = true;
    return this.working;
  }
}
