/**
 * `npm run ops -- <command> --service URL [options]`: the operator's commands for the outbox
 * and the inbox of a running service, over its HTTP API (nest-commander; `--help` on every
 * command). Destructive commands ask for confirmation unless --yes, and refuse without --yes
 * when stdin is not a terminal. Exit codes: 0 done, 1 refused or failed, 64 bad command line.
 */
import 'reflect-metadata';
import { runOpsCli } from './ops/run-ops-cli';

runOpsCli().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`ops: ${error.message}\n`);
    process.exit(1);
  },
);
