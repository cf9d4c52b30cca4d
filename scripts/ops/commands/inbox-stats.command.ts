import { Command } from 'nest-commander';
import { ServiceCommand, ServiceOptions } from './service-command';

/** `ops inbox:stats`: the consumer's inbox rows by outcome, parked events, gaps, DLQ size. */
@Command({
  name: 'inbox:stats',
  description: 'inbox rows by outcome, parked events, open gaps and dead-letter topic size',
})
export class InboxStatsCommand extends ServiceCommand {
  async run(_params: string[], options: ServiceOptions): Promise<void> {
    await this.callAndPrint(options, 'GET', '/inbox/stats');
  }
}
