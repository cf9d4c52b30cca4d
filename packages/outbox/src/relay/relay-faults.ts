/**
 * A condition outside the relay's code that holds rows back until the deployment or the
 * platform is fixed: a missing table, column or grant (`schema`), a topic that does not
 * exist or that the relay may not write (`topic`), or a cluster that does not let the relay's
 * client in: its SASL credentials or the brokers' certificate refused (`broker`). Rows are not
 * failed for it: they wait.
 */
export interface RelayFault {
  kind: 'schema' | 'topic' | 'broker';
  /** What is missing or refused: a table, a column, a grant, a topic's name, or `kafka`. */
  subject: string;
  /** The driver's or the broker's code: ER_NO_SUCH_TABLE, 42P01, UNKNOWN_TOPIC_OR_PARTITION… */
  code: string;
  /** When it was first seen, ISO-8601. */
  since: string;
  /** Failed rounds since then. */
  rounds: number;
  /** What an operator runs or changes to clear it. */
  remedy: string;
}

/** The relay's faults now: one per kind and subject, cleared once that subject works again. */
export class RelayFaults {
  private readonly faults = new Map<string, RelayFault>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a failed round; answers whether the fault is new (for a single log line). */
  record(fault: Omit<RelayFault, 'since' | 'rounds'>): boolean {
    const key = `${fault.kind}\u0000${fault.subject}`;
    const existing = this.faults.get(key);
    this.faults.set(key, {
      ...fault,
      since: existing?.since ?? new Date(this.now()).toISOString(),
      rounds: (existing?.rounds ?? 0) + 1,
    });
    return existing === undefined;
  }

  /** `subject` of `kind` works again (or every subject of `kind` when none is given). */
  clear(kind: RelayFault['kind'], subject?: string): void {
    for (const [key, fault] of this.faults) {
      if (fault.kind === kind && (subject === undefined || fault.subject === subject)) {
        this.faults.delete(key);
      }
    }
  }

  list(): RelayFault[] {
    return [...this.faults.values()];
  }
}
