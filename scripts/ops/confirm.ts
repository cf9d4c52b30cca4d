import { createInterface } from 'node:readline/promises';
import { Injectable } from '@nestjs/common';
import { UsageError } from './ops-errors';

/**
 * Asks the operator before a destructive command. `--yes` skips the question; without a
 * terminal to ask on (a script, a pipe, CI) the command is refused unless `--yes` was given.
 */
@Injectable()
export class Confirmation {
  /** True when the operator agreed (or passed --yes); false when they answered anything else. */
  async confirm(question: string, yes: boolean | undefined): Promise<boolean> {
    if (yes) return true;
    if (!process.stdin.isTTY) {
      throw new UsageError(`refusing to ${question} without --yes: stdin is not a terminal`);
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await rl.question(`${question}? [y/N] `)).trim());
    } finally {
      rl.close();
    }
  }
}
