import { Command } from 'nest-commander';
import { ServiceCommand, ServiceOptions } from './service-command';

/** `ops outbox:stats`: backlog by status, oldest unsent age, DEAD count. */
@Command({
  name: 'outbox:stats',
  description: "the service's outbox backlog by status, oldest unsent age and DEAD count",
})
export class OutboxStatsCommand extends ServiceCommand {
  async run(_params: string[], options: ServiceOptions): Promise<void> {
    await this.callAndPrint(options, 'GET', '/outbox/stats');
  }
}
