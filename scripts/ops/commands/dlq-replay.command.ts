import { Command, Option } from 'nest-commander';
import { DEAD_LETTER_CODES, DeadLetterCode } from '@outbox-inbox/inbox';
import { invalidArgument, UsageError } from '../ops-errors';
import { collect, ServiceCommand, ServiceOptions } from './service-command';

interface DlqReplayOptions extends ServiceOptions {
  message?: string[];
  eventType?: string;
  errorCode?: DeadLetterCode;
  all?: boolean;
  includeReplayed?: boolean;
  targetTopic?: string;
  dryRun?: boolean;
}

/** `ops dlq:replay`: puts dead letters on the consumer's retry topic, read by its group alone. */
@Command({
  name: 'dlq:replay',
  description:
    "put dead letters on the consumer's own retry topic (by --message, --event-type, --error-code, or --all); --dry-run lists them only",
})
export class DlqReplayCommand extends ServiceCommand<DlqReplayOptions> {
  @Option({
    flags: '--message <partition:offset>',
    description: 'a dead letter (repeatable)',
  })
  parseMessage(value: string, previous?: string[]): string[] {
    if (!/^\d{1,9}:\d{1,19}$/.test(value)) {
      throw invalidArgument('must be PARTITION:OFFSET, e.g. 0:12');
    }
    return collect(value, previous);
  }

  @Option({ flags: '--event-type <type>', description: 'dead letters of this event type' })
  parseEventType(value: string): string {
    return value;
  }

  @Option({
    flags: '--error-code <code>',
    description: `dead letters with this error code (${DEAD_LETTER_CODES.join(', ')})`,
  })
  parseErrorCode(value: string): DeadLetterCode {
    const code = DEAD_LETTER_CODES.find((known) => known === value);
    if (!code) throw invalidArgument(`must be one of ${DEAD_LETTER_CODES.join(', ')}`);
    return code;
  }

  @Option({ flags: '--all', description: 'every dead letter' })
  parseAll(): boolean {
    return true;
  }

  @Option({ flags: '--include-replayed', description: 'replay ones replayed before too' })
  parseIncludeReplayed(): boolean {
    return true;
  }

  @Option({
    flags: '--target-topic <topic>',
    description: "the consumer's retry topic: replay the selected ones whatever their source",
  })
  parseTargetTopic(value: string): string {
    return value;
  }

  @Option({ flags: '--dry-run', description: 'list what would be replayed; change nothing' })
  parseDryRun(): boolean {
    return true;
  }

  @Option({ flags: '-y, --yes', description: 'do not ask for confirmation' })
  parseYes(): boolean {
    return true;
  }

  async run(_params: string[], options: DlqReplayOptions): Promise<void> {
    const messages = options.message?.map((ref) => {
      const [partition, offset] = ref.split(':');
      return { partition: Number(partition), offset };
    });
    const selectors = {
      ...(messages && { messages }),
      ...(options.eventType && { eventType: options.eventType }),
      ...(options.errorCode && { errorCode: options.errorCode }),
      ...(options.all && { all: true }),
    };
    if (Object.keys(selectors).length === 0) {
      throw new UsageError('dlq:replay needs --message, --event-type, --error-code or --all');
    }
    const body = {
      ...selectors,
      ...(options.includeReplayed && { includeReplayed: true }),
      ...(options.targetTopic && { targetTopic: options.targetTopic }),
    };
    if (options.dryRun) {
      // Changes nothing: no confirmation to ask for.
      return this.callAndPrint(options, 'POST', '/inbox/dead-letters/replay', {
        ...body,
        dryRun: true,
      });
    }
    if (!(await this.confirmed(options, `replay dead letters ${JSON.stringify(selectors)}`))) {
      return;
    }
    await this.callAndPrint(options, 'POST', '/inbox/dead-letters/replay', body);
  }
}
