import { LoggerService } from '@nestjs/common';
import { BackoffPolicy, DeploymentFault, deploymentFaultOf } from '@outbox-inbox/database';
import { RelayFaults } from './relay-faults';

/** The longest wait between claims while t_outbox is missing: a fixed deployment is seen soon. */
const LONGEST_WAIT_MS = 15_000;

/**
 * The relay's answer to a half-done deployment on its claims: t_outbox, a column of it or a
 * grant missing. It records a `schema` RelayFault (OutboxRelayStats.faults), says so in one
 * line when the fault begins and in one when a claim works again, and waits with capped
 * exponential backoff in between, instead of an error line per round.
 */
export class SchemaFaults {
  constructor(
    private readonly faults: RelayFaults,
    private readonly logger: LoggerService,
  ) {}

  /** Records `error` when it is a schema fault and answers true; false for any other error. */
  failed(error: unknown): boolean {
    const fault = deploymentFaultOf(error);
    if (!fault) return false;
    const isNew = this.faults.record({
      kind: 'schema',
      subject: fault.subject,
      code: fault.code,
      remedy: outboxRemedy(fault),
    });
    if (isNew) {
      this.logger.warn(
        `outbox relay cannot claim: ${describe(fault)} (${fault.code}); ${outboxRemedy(fault)}. Rows wait (none is failed for it); claims are retried with backoff`,
      );
    }
    return true;
  }

  /** A claim worked: every schema fault is cleared, with one line if there was one. */
  worked(): void {
    const cleared = this.faults.list().filter((f) => f.kind === 'schema');
    if (cleared.length === 0) return;
    this.faults.clear('schema');
    this.logger.log(
      `outbox relay claims again: ${cleared.map((f) => f.subject).join(', ')} in place after ${Math.max(...cleared.map((f) => f.rounds))} round(s)`,
    );
  }

  /** How long to wait before claim round `failures`: the row backoff, capped lower. */
  static backoff(policy: BackoffPolicy): BackoffPolicy {
    return { ...policy, maxDelayMs: Math.min(policy.maxDelayMs, LONGEST_WAIT_MS) };
  }
}

function describe(fault: DeploymentFault): string {
  return fault.kind === 'grant'
    ? `${fault.subject} is not granted`
    : `${fault.kind} ${fault.subject} is missing`;
}

/** What an operator runs or grants to clear `fault`. */
export function outboxRemedy(fault: DeploymentFault): string {
  if (fault.kind !== 'grant') {
    return "run OutboxMigrations (@outbox-inbox/outbox) on this service's database";
  }
  // MySQL names the privilege ("UPDATE on t_outbox"), PostgreSQL only the table.
  const privilege = /^[A-Z]+ on /.test(fault.subject)
    ? fault.subject
    : 'SELECT, INSERT, UPDATE, DELETE on t_outbox';
  return `grant this service's database user ${privilege}`;
}
