/** A cell: text, a number (right-aligned), or nothing (`-`). */
export type Cell = string | number | boolean | null | undefined;

/**
 * Rows as an aligned text table for a terminal: a header, a rule under it, columns padded to
 * their widest cell, numbers right-aligned, a missing value as `-`, and long cells cut at
 * `maxWidth` with `…`. An empty table prints `(none)` under its header.
 */
export function textTable(headers: string[], rows: Cell[][], maxWidth = 60): string {
  const text = (cell: Cell): string => {
    const value = cell === null || cell === undefined || cell === '' ? '-' : String(cell);
    const line = value.replace(/\s+/g, ' ');
    return line.length > maxWidth ? `${line.slice(0, maxWidth - 1)}…` : line;
  };
  const cells = rows.map((row) => headers.map((_, i) => text(row[i])));
  const numeric = headers.map(
    (_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || row[i] == null),
  );
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => row[i].length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => (numeric[i] ? value.padStart(widths[i]) : value.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    line(headers),
    line(widths.map((w) => '-'.repeat(w))),
    ...(cells.length > 0 ? cells.map(line) : ['(none)']),
  ].join('\n');
}
