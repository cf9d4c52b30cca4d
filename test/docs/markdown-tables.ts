/**
 * What keeps a markdown document's tables from rendering as GitHub renders a well-formed one:
 * a table (consecutive lines starting with `|`, outside fenced code) has its delimiter row
 * second and nowhere else (a stray `| --- |` row mid-table renders as a row of dashes), and
 * every row has as many cells as the header (extra cells are dropped). Returns one line per
 * problem, `line N: …`, 1-based.
 */
export function tableProblems(markdown: string): string[] {
  const problems: string[] = [];
  let fenced = false;
  let table: Array<{ line: number; cells: string[] }> = [];
  const lines = markdown.split('\n');
  lines.forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (!fenced && text.trimStart().startsWith('|')) {
      table.push({ line: index + 1, cells: cellsOf(text) });
      return;
    }
    problems.push(...checkTable(table));
    table = [];
  });
  problems.push(...checkTable(table));
  return problems;
}

function checkTable(rows: Array<{ line: number; cells: string[] }>): string[] {
  if (rows.length === 0) return [];
  const problems: string[] = [];
  const [header] = rows;
  rows.forEach(({ line, cells }, index) => {
    const delimiter = cells.every((cell) => /^:?-+:?$/.test(cell));
    if (index === 1 && !delimiter) problems.push(`line ${line}: the table has no delimiter row`);
    if (index !== 1 && delimiter) problems.push(`line ${line}: a delimiter row inside a table`);
    if (cells.length !== header.cells.length)
      problems.push(`line ${line}: ${cells.length} cells, the header has ${header.cells.length}`);
  });
  return problems;
}

/** A row's cells: split on pipes that are not escaped (GitHub splits inside code spans too). */
function cellsOf(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}
