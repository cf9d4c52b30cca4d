import { BenchResult } from './results';

/** One broker's results of a `--brokers` run, part by part. */
export interface BrokerRun {
  /** The broker's name in `--brokers` (mock, apache): the columns' heading. */
  broker: string;
  parts: Array<{ part: string; results: BenchResult[] }>;
}

/** One metric of one part, with each broker's result (absent where that broker had none). */
export interface BrokerRow {
  part: string;
  /** The metric as the brokers named it; numbers that differ are written `a / b`, in broker order. */
  metric: string;
  baseline: string;
  target: string;
  byBroker: Record<string, BenchResult | undefined>;
}

/** Digits, with thousands separators or a decimal point: the parts of a name a run may vary. */
const NUMBER = /\d+(?:[.,]\d+)*/g;

/**
 * The results of several brokers merged into one row per metric. A part's metrics are matched
 * by name with every number left out (the e2e latency is measured at half of each broker's own
 * maximum, so "at 172 callbacks/s" on one is "at 120 callbacks/s" on the other), and names that
 * differ only in numbers (1, 8 and 32 connections) by their order, which the same code keeps.
 * Parts and rows keep the order of their first appearance; a row one broker lacks is kept, with
 * nothing in that broker's cells.
 */
export function mergeByBroker(runs: BrokerRun[]): BrokerRow[] {
  const brokers = runs.map((r) => r.broker);
  const duplicate = brokers.find((b, i) => brokers.indexOf(b) !== i);
  if (duplicate !== undefined) throw new Error(`broker "${duplicate}" appears twice`);

  const partOrder: string[] = [];
  const rows = new Map<string, Map<string, Record<string, BenchResult>>>();
  for (const run of runs) {
    for (const { part, results } of run.parts) {
      if (!rows.has(part)) {
        partOrder.push(part);
        rows.set(part, new Map());
      }
      const partRows = rows.get(part)!;
      const seen = new Map<string, number>();
      for (const result of results) {
        const shape = result.metric.replace(NUMBER, '#');
        const occurrence = seen.get(shape) ?? 0;
        seen.set(shape, occurrence + 1);
        const key = `${shape}\u0000${occurrence}`;
        if (!partRows.has(key)) partRows.set(key, {});
        partRows.get(key)![run.broker] = result;
      }
    }
  }

  return partOrder.flatMap((part) =>
    [...rows.get(part)!.values()].map((found) => {
      const present = brokers.filter((b) => found[b] !== undefined).map((b) => found[b]);
      return {
        part,
        metric: mergeTexts(present.map((r) => r.metric)),
        baseline: mergeTexts(present.map((r) => r.baseline)),
        target: mergeTexts(present.map((r) => r.target)),
        byBroker: Object.fromEntries(brokers.map((b) => [b, found[b]])),
      };
    }),
  );
}

/**
 * One text for several: the text itself when all are equal; when they differ only in numbers,
 * the shared words with each differing number written `a / b`; otherwise all of them, ` / `
 * between.
 */
export function mergeTexts(texts: string[]): string {
  const distinct = [...new Set(texts)];
  if (distinct.length <= 1) return distinct[0] ?? '';
  const shapes = new Set(texts.map((t) => t.replace(NUMBER, '#')));
  if (shapes.size !== 1) return distinct.join(' / ');
  const numbers = texts.map((t) => t.match(NUMBER) ?? []);
  const words = texts[0].split(NUMBER);
  return words
    .map((word, i) => {
      if (i === words.length - 1) return word;
      const values = [...new Set(numbers.map((n) => n[i]))];
      return word + values.join(' / ');
    })
    .join('');
}

/**
 * The merged results as one Markdown table (bench/results/summary.md of a `--brokers` run): per
 * metric, each broker's value, baseline value, ratio and whether its target was met.
 */
export function brokerMarkdownTable(runs: BrokerRun[]): string {
  const brokers = runs.map((r) => r.broker);
  const perBroker = (b: string) => [`${b}: value`, `${b}: baseline`, `${b}: ratio`, `${b}: met`];
  const header = ['part', 'metric', 'baseline', 'target', ...brokers.flatMap(perBroker)];
  const align = [
    '---',
    '---',
    '---',
    '---',
    ...brokers.flatMap(() => ['---:', '---:', '---:', '---']),
  ];
  const lines = [row(header), row(align)];
  for (const r of mergeByBroker(runs)) {
    const cells = brokers.flatMap((b) => {
      const result = r.byBroker[b];
      if (!result) return ['—', '—', '—', '—'];
      return [
        `${num(result.value)} ${result.unit}`,
        num(result.baselineValue),
        `${num(result.ratio)}x`,
        result.met ? 'yes' : '**no**',
      ];
    });
    lines.push(row([r.part, r.metric, r.baseline, r.target, ...cells]));
  }
  return `${lines.join('\n')}\n`;
}

/** The merged results for console.table: one object per row, one short cell per broker. */
export function brokerConsoleRows(runs: BrokerRun[]): Array<Record<string, string>> {
  return mergeByBroker(runs).map((r) => ({
    metric: `${r.part}: ${r.metric}`,
    ...Object.fromEntries(
      Object.entries(r.byBroker).map(([broker, result]) => [
        broker,
        result
          ? `${num(result.value)} ${result.unit} (${num(result.ratio)}x${result.met ? '' : ', NOT MET'})`
          : '—',
      ]),
    ),
    target: r.target,
  }));
}

function row(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}

function num(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}
