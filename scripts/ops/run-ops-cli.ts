import { CommandFactory } from 'nest-commander';
import { OpsCliModule } from './ops-cli.module';
import { EXIT, isCommanderError, UsageError } from './ops-errors';

/**
 * Runs one `ops` command line and resolves with its exit code: 0 done (and --help), 1 the
 * service refused or failed or the operator said no, 64 a bad command line (commander's own
 * messages are already on stderr; ours are written here).
 */
export async function runOpsCli(): Promise<number> {
  let code: number = EXIT.ok;
  await CommandFactory.run(OpsCliModule, {
    logger: false,
    cliName: 'ops',
    // The root command throws instead of exiting, like every subcommand (ServiceCommand).
    errorHandler: (error) => {
      throw error;
    },
    serviceErrorHandler: (error) => {
      if (isCommanderError(error)) {
        code = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      } else if (error instanceof UsageError) {
        process.stderr.write(`ops: ${error.message}\n(add --help for usage)\n`);
        code = EXIT.usage;
      } else {
        process.stderr.write(`ops: ${error.message}\n`);
        code = EXIT.failed;
      }
    },
  });
  return code === EXIT.ok ? Number(process.exitCode ?? EXIT.ok) : code;
}
