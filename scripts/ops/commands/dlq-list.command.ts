import { Command } from 'nest-commander';
import { ServiceCommand, ServiceOptions } from './service-command';

/** `ops dlq:list`: the messages in the consumer's dead-letter topic. */
@Command({
  name: 'dlq:list',
  description: "messages in the consumer's dead-letter topic, with why and where they failed",
})
export class DlqListCommand extends ServiceCommand {
  async run(_params: string[], options: ServiceOptions): Promise<void> {
    await this.callAndPrint(options, 'GET', '/inbox/dead-letters');
  }
}
