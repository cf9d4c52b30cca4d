import { Command, Option } from 'nest-commander';
import { invalidArgument, UsageError } from '../ops-errors';
import { ServiceCommand, ServiceOptions } from './service-command';

interface GapSkipOptions extends ServiceOptions {
  aggregate?: { aggregateType: string; aggregateId: string };
  version?: number;
  reason?: string;
  by?: string;
}

/** `ops gap:skip`: marks an aggregate's missing version as skipped, so its successors apply. */
@Command({
  name: 'gap:skip',
  description:
    "skip an aggregate's missing version on purpose (audited): its parked successors are applied",
})
export class GapSkipCommand extends ServiceCommand<GapSkipOptions> {
  @Option({ flags: '--aggregate <Type:id>', description: 'the aggregate, e.g. Order:42' })
  parseAggregate(value: string): { aggregateType: string; aggregateId: string } {
    const match = /^([A-Z][A-Za-z0-9]{1,31}):([A-Za-z0-9_-]{1,64})$/.exec(value);
    if (!match) throw invalidArgument('must be Type:id, e.g. Order:42');
    return { aggregateType: match[1], aggregateId: match[2] };
  }

  @Option({ flags: '--version <n>', description: 'the missing version (last applied + 1)' })
  parseVersion(value: string): number {
    if (!/^[1-9]\d{0,9}$/.test(value)) throw invalidArgument('must be a positive integer');
    return Number(value);
  }

  @Option({ flags: '--reason <text>', description: 'why it will never come (kept for audit)' })
  parseReason(value: string): string {
    if (value.trim().length < 3) throw invalidArgument('must say why, in 3 characters or more');
    return value.trim();
  }

  @Option({ flags: '--by <name>', description: 'who skips it (default: $USER)' })
  parseBy(value: string): string {
    return value;
  }

  @Option({ flags: '-y, --yes', description: 'do not ask for confirmation' })
  parseYes(): boolean {
    return true;
  }

  async run(_params: string[], options: GapSkipOptions): Promise<void> {
    const { aggregate, version, reason } = options;
    if (!aggregate || !version || !reason) {
      throw new UsageError('gap:skip needs --aggregate, --version and --reason');
    }
    const body = {
      ...aggregate,
      version,
      reason,
      skippedBy: options.by ?? process.env.USER ?? 'operator',
    };
    const what = `skip ${aggregate.aggregateType} ${aggregate.aggregateId} v${version} (${reason})`;
    if (!(await this.confirmed(options, what))) return;
    await this.callAndPrint(options, 'POST', '/inbox/gaps/skip', body);
  }
}
