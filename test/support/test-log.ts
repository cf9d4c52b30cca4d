import { createWriteStream, mkdirSync, WriteStream } from 'node:fs';
import { basename, join } from 'node:path';

/** Where the service output of each test file goes: `test-logs/<spec>.log`. */
export const TEST_LOG_DIR = join(__dirname, '..', '..', 'test-logs');

/**
 * One test file's service output: in memory (`lines`, which tests search) and on disk
 * (replaced at each run), so that a failed run can be read afterwards; `.ci/run` prints the end of it for every file that failed. Each line is
 * timestamped, and a header names the test that was running when the lines under it arrived
 * (Jest keeps the last test's name until the next starts, so lines from hooks run after a test
 * come under that test). Lines that arrive after `close` (a process's last output can follow its
 * exit) are dropped.
 */
export class TestLog {
  /** Every line so far, those that came after `close` included. */
  readonly lines: string[] = [];
  private readonly file: WriteStream;
  /** The test whose header was written last; null before the first line. */
  private test: string | undefined | null = null;

  constructor(fallbackName: string) {
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    const spec = expect.getState().testPath;
    const name = spec ? basename(spec).replace(/\.ts$/, '') : fallbackName;
    this.file = createWriteStream(join(TEST_LOG_DIR, `${name}.log`));
    // A log that cannot be written must not fail the test it describes.
    this.file.on('error', () => undefined);
  }

  /** Takes one line; a method-bound arrow, so it can be handed out as a callback. */
  readonly line = (text: string): void => {
    this.lines.push(text);
    if (this.file.writableEnded) return;
    const test = expect.getState().currentTestName;
    if (test !== this.test) {
      this.test = test;
      this.file.write(`\n===== ${test ?? '(before the first test)'}\n`);
    }
    this.file.write(`${new Date().toISOString()} ${text}\n`);
  };

  close(): Promise<void> {
    if (this.file.writableEnded) return Promise.resolve();
    return new Promise((resolve) => this.file.end(resolve));
  }
}
