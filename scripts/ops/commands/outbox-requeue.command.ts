import { Command, Option } from 'nest-commander';
import { invalidArgument, UsageError } from '../ops-errors';
import { collect, ServiceCommand, ServiceOptions } from './service-command';

interface OutboxRequeueOptions extends ServiceOptions {
  id?: string[];
  eventType?: string;
  aggregateType?: string;
  aggregateId?: string;
  all?: boolean;
}

/** `ops outbox:requeue`: DEAD rows back to NEW, due now, with a fresh retry count. */
@Command({
  name: 'outbox:requeue',
  description:
    'put DEAD outbox rows back to NEW (by --id, --event-type, --aggregate-type/--aggregate-id, or --all)',
})
export class OutboxRequeueCommand extends ServiceCommand<OutboxRequeueOptions> {
  @Option({ flags: '--id <id>', description: 'a DEAD row id (repeatable)' })
  parseId(value: string, previous?: string[]): string[] {
    if (!/^\d{1,20}$/.test(value)) throw invalidArgument('must be a row id');
    return collect(value, previous);
  }

  @Option({ flags: '--event-type <type>', description: 'DEAD rows of this event type' })
  parseEventType(value: string): string {
    return value;
  }

  @Option({ flags: '--aggregate-type <type>', description: 'DEAD rows of this aggregate type' })
  parseAggregateType(value: string): string {
    return value;
  }

  @Option({ flags: '--aggregate-id <id>', description: 'DEAD rows of this aggregate id' })
  parseAggregateId(value: string): string {
    return value;
  }

  @Option({ flags: '--all', description: 'every DEAD row' })
  parseAll(): boolean {
    return true;
  }

  @Option({ flags: '-y, --yes', description: 'do not ask for confirmation' })
  parseYes(): boolean {
    return true;
  }

  async run(_params: string[], options: OutboxRequeueOptions): Promise<void> {
    const filter = {
      ...(options.id && { ids: options.id }),
      ...(options.eventType && { eventType: options.eventType }),
      ...(options.aggregateType && { aggregateType: options.aggregateType }),
      ...(options.aggregateId && { aggregateId: options.aggregateId }),
      ...(options.all && { all: true }),
    };
    if (Object.keys(filter).length === 0) {
      throw new UsageError(
        'outbox:requeue needs --id, --event-type, --aggregate-type, --aggregate-id or --all',
      );
    }
    if (!(await this.confirmed(options, `requeue DEAD rows ${JSON.stringify(filter)}`))) return;
    await this.callAndPrint(options, 'POST', '/outbox/dead/requeue', filter);
  }
}
