import { Command, Option } from 'nest-commander';
import { invalidArgument, UsageError } from '../ops-errors';
import { ServiceCommand, ServiceOptions } from './service-command';

interface PruneOutboxOptions extends ServiceOptions {
  olderThan?: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `ops prune:outbox`: deletes SENT outbox rows older than a duration. */
@Command({
  name: 'prune:outbox',
  description: 'delete SENT outbox rows older than --older-than (e.g. 7d, 12h, 30m)',
})
export class PruneOutboxCommand extends ServiceCommand<PruneOutboxOptions> {
  @Option({
    flags: '--older-than <duration>',
    description: 'age of the SENT rows to delete: a number with ms, s, m, h or d',
  })
  parseOlderThan(value: string): number {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(value);
    if (!match) throw invalidArgument('must be a duration such as 7d, 12h, 30m or 500ms');
    return Number(match[1]) * UNIT_MS[match[2]];
  }

  @Option({ flags: '-y, --yes', description: 'do not ask for confirmation' })
  parseYes(): boolean {
    return true;
  }

  async run(_params: string[], options: PruneOutboxOptions): Promise<void> {
    if (options.olderThan === undefined) {
      throw new UsageError('prune:outbox needs --older-than (e.g. 7d)');
    }
    if (
      !(await this.confirmed(options, `delete SENT outbox rows older than ${options.olderThan} ms`))
    ) {
      return;
    }
    await this.callAndPrint(options, 'POST', '/outbox/prune', { olderThanMs: options.olderThan });
  }
}
