import { BenchResult } from './results';

/** Results of several parts as one Markdown table (for README.bench.md and summary.md). */
export function markdownTable(parts: Array<{ part: string; results: BenchResult[] }>): string {
  const lines = [
    '| part | metric | value | baseline | ratio | target | met |',
    '| --- | --- | ---: | --- | ---: | --- | --- |',
  ];
  for (const { part, results } of parts) {
    for (const r of results) {
      lines.push(
        `| ${part} | ${r.metric} | ${num(r.value)} ${r.unit} | ${r.baseline}: ${num(r.baselineValue)} | ` +
          `${num(r.ratio)}x | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function num(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}
