import { CommandRunner } from 'nest-commander';

/**
 * Base of every `ops` subcommand: commander's own errors (a bad option, --help shown) are
 * thrown to runOpsCli, which turns them into exit codes, instead of exiting the process here.
 */
export abstract class OpsCommand extends CommandRunner {
  override setCommand(command: Parameters<CommandRunner['setCommand']>[0]): this {
    command.exitOverride();
    command.showHelpAfterError('(add --help for usage)');
    return super.setCommand(command);
  }
}
