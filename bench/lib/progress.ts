/** A timestamped progress line on stdout, so a long run shows where it is. */
export function progress(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}
