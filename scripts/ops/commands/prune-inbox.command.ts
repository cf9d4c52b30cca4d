import { Command, Option } from 'nest-commander';
import { ServiceCommand, ServiceOptions } from './service-command';

/** `ops prune:inbox`: deletes inbox rows older than the consumer's dedup window. */
@Command({
  name: 'prune:inbox',
  description: "delete inbox rows older than the consumer's dedup window (parked rows stay)",
})
export class PruneInboxCommand extends ServiceCommand {
  @Option({ flags: '-y, --yes', description: 'do not ask for confirmation' })
  parseYes(): boolean {
    return true;
  }

  async run(_params: string[], options: ServiceOptions): Promise<void> {
    if (!(await this.confirmed(options, 'delete inbox rows older than the dedup window'))) return;
    await this.callAndPrint(options, 'POST', '/inbox/prune');
  }
}
