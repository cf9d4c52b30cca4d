/**
 * `npm run ops -- <command> --service URL`: the operator's commands for the outbox and the
 * inbox of a running service, over its HTTP API. Destructive commands ask for confirmation
 * unless --yes. Exit codes: 0 done, 1 the service refused or failed, 64 bad command line.
 */
import { createInterface } from 'node:readline/promises';
import { requestJson } from './demo/http-json';
import { parseOpsCommand, UsageError } from './ops/ops-command';

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseOpsCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 64;
    }
    throw error;
  }
  const target = `${command.method} ${command.service}${command.path}`;
  if (
    command.destructive &&
    !command.yes &&
    !(await confirm(`${target} ${JSON.stringify(command.body)}?`))
  ) {
    process.stderr.write('not confirmed (pass --yes to skip the question)\n');
    return 1;
  }
  const { status, body } = await requestJson(`${command.service}${command.path}`, {
    method: command.method,
    body: command.body,
  });
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  if (status >= 400) process.stderr.write(`${target}: HTTP ${status}\n`);
  return status < 400 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`ops: ${error.message}\n`);
    process.exit(1);
  },
);
