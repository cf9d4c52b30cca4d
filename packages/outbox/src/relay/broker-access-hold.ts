import { LoggerService } from '@nestjs/common';
import { backoffDelay } from '@outbox-inbox/database';
import { brokerAccessRefusalOf, brokerAccessRemedy } from '@outbox-inbox/messaging';
import { OutboxBackoffOptions } from './outbox-relay.options';
import { RelayFaults } from './relay-faults';

/** The subject of the one `broker` fault: the cluster as a whole, not a topic. */
export const BROKER_FAULT_SUBJECT = 'kafka';

/**
 * The relay's side of a cluster that does not let its client in (a wrong SASL password, a
 * certificate it does not trust): records the `broker` fault for /health/details, logs one line
 * when it starts and one when sends get through again, and spaces the rows' next look with the
 * relay's backoff. The rows keep their attempts: no message is at fault, so none goes DEAD.
 * The lines name the cause and the remedy, never a credential.
 */
export class BrokerAccessHold {
  constructor(
    private readonly faults: RelayFaults,
    private readonly logger: LoggerService,
    private readonly backoff: OutboxBackoffOptions,
  ) {}

  /** The delay before the rows are due again if `error` is an access refusal; else undefined. */
  hold(error: unknown): number | undefined {
    const code = brokerAccessRefusalOf(error);
    if (!code) return undefined;
    const remedy = brokerAccessRemedy(code);
    if (this.faults.record({ kind: 'broker', subject: BROKER_FAULT_SUBJECT, code, remedy })) {
      this.logger.error(
        `outbox rows wait: Kafka refused this relay's connection (${code}); ${remedy}. ` +
          'They keep their attempts and are sent once the cluster lets the relay in.',
      );
    }
    const fault = this.faults.list().find((f) => f.kind === 'broker');
    return backoffDelay(this.backoff, fault?.rounds ?? 1);
  }

  /** A send got through: the fault, if any, ends with one log line. */
  cleared(): void {
    const fault = this.faults.list().find((f) => f.kind === 'broker');
    if (!fault) return;
    this.faults.clear('broker');
    this.logger.log(
      `Kafka lets this relay in again (${fault.code} since ${fault.since}, ${fault.rounds} rounds)`,
    );
  }
}
