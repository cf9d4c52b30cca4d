import { Command, Option } from 'nest-commander';
import { invalidArgument } from '../ops-errors';
import { ServiceCommand, ServiceOptions } from './service-command';

interface OutboxDeadOptions extends ServiceOptions {
  limit?: number;
  afterId?: string;
}

/** `ops outbox:dead`: DEAD outbox rows with their last error, oldest first. */
@Command({ name: 'outbox:dead', description: 'list DEAD outbox rows with their last error' })
export class OutboxDeadCommand extends ServiceCommand<OutboxDeadOptions> {
  @Option({ flags: '--limit <n>', description: 'rows to list, 1 to 1000 (default 100)' })
  parseLimit(value: string): number {
    if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
      throw invalidArgument('must be a number from 1 to 1000');
    }
    return Number(value);
  }

  @Option({ flags: '--after-id <id>', description: 'list rows after this id (paging)' })
  parseAfterId(value: string): string {
    if (!/^\d{1,20}$/.test(value)) throw invalidArgument('must be a row id');
    return value;
  }

  async run(_params: string[], options: OutboxDeadOptions): Promise<void> {
    const query = new URLSearchParams({ limit: String(options.limit ?? 100) });
    if (options.afterId) query.set('afterId', options.afterId);
    await this.callAndPrint(options, 'GET', `/outbox/dead?${query}`);
  }
}
