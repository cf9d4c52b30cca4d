import { readFileSync } from 'node:fs';

/**
 * The rows of the first table under `heading` (a line such as `## Error codes`) in a markdown
 * file, as arrays of cell texts without the surrounding backticks. Lets a test compare what a
 * README promises with what the code exports.
 */
export function readMarkdownTable(file: string, heading: string): string[][] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) throw new Error(`${file} has no "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().length - 1)
      .split('|')
      .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    rows.push(cells);
  }
  if (rows.length < 2) throw new Error(`${file}: no table under "${heading}"`);
  return rows.slice(1); // without the header row
}
