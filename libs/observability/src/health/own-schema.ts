import type { DeploymentFault, SchemaProbe } from '@outbox-inbox/database';

/** A deployment fault of one of this service's components. */
export interface OwnSchemaFault extends DeploymentFault {
  component: 'outbox' | 'inbox';
}

/**
 * This instance's own tables and grants, through the probes OutboxModule and InboxModule
 * provide: what readiness asks (an instance without them cannot serve: a command's outbox
 * write, an event's inbox row would fail), what /health/details and `schema_faults` show.
 * Concurrent callers share one probe.
 */
export class OwnSchema {
  private inFlight?: Promise<OwnSchemaFault[]>;

  constructor(private readonly probes: Partial<Record<OwnSchemaFault['component'], SchemaProbe>>) {}

  /** True when some component of this service has a schema to probe. */
  get probed(): boolean {
    return Object.keys(this.probes).length > 0;
  }

  /** The faults now; rejects when the database does not answer. */
  faults(): Promise<OwnSchemaFault[]> {
    this.inFlight ??= this.probe().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async probe(): Promise<OwnSchemaFault[]> {
    const found = await Promise.all(
      Object.entries(this.probes).map(async ([component, probe]) =>
        (await probe.faults()).map((f) => ({ ...f, component }) as OwnSchemaFault),
      ),
    );
    return found.flat();
  }
}

/** The faults in one line: "outbox: table t_outbox is missing (42P01)". */
export function describeOwnSchemaFaults(faults: OwnSchemaFault[]): string {
  return faults
    .map(
      (f) =>
        `${f.component}: ${f.kind === 'grant' ? `${f.subject} is not granted` : `${f.kind} ${f.subject} is missing`} (${f.code})`,
    )
    .join('; ');
}
