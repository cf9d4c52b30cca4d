import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One alerting rule of deploy/prometheus/alerts.yml. */
export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
}

/** A scrape of one service: its exposition text and when it was taken (epoch ms). */
export interface Scrape {
  at: number;
  text: string;
}

/** One series of a scrape: the metric name, its labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export const ALERTS_FILE = join(__dirname, '../../deploy/prometheus/alerts.yml');

/** The alerting rules of deploy/prometheus/alerts.yml, as Prometheus loads them. */
export function loadAlertRules(file = ALERTS_FILE): AlertRule[] {
  const document = parse(readFileSync(file, 'utf8')) as {
    groups: Array<{ rules: AlertRule[] }>;
  };
  return document.groups.flatMap((g) => g.rules);
}

const COMPARISON =
  /^\s*(increase\(\s*)?([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?(?:\[(\d+)([smh])\]\s*\))?\s*(==|!=|>=|<=|>|<)\s*(-?[\d.]+)\s*$/;

/**
 * Evaluates the rule expressions alerts.yml uses, and only those: `metric{matchers} OP number`
 * and `increase(metric{matchers}[range]) OP number`, over scrapes of one service. Answers the
 * series for which the comparison holds (Prometheus's alert instances), with their value. The
 * instant vector is the latest scrape; increase() is the last minus the first value of the
 * scrapes inside the range (counters here never reset within a test). Anything else throws,
 * so a rule this cannot evaluate honestly fails the test instead of passing it.
 */
export function evaluateRule(
  expr: string,
  scrapes: Scrape[],
): Array<{ labels: Record<string, string>; value: number }> {
  const match = COMPARISON.exec(expr);
  if (!match || scrapes.length === 0) throw new Error(`cannot evaluate "${expr}"`);
  const [, increase, name, matchers, range, unit, op, threshold] = match;
  if (Boolean(increase) !== Boolean(range)) throw new Error(`cannot evaluate "${expr}"`);
  const wanted = parseMatchers(matchers ?? '');
  const select = (scrape: Scrape) =>
    parseExposition(scrape.text).filter(
      (s) =>
        s.name === name && Object.entries(wanted).every(([key, value]) => s.labels[key] === value),
    );
  const latest = scrapes[scrapes.length - 1];
  let vector = select(latest);
  if (increase) {
    const rangeMs = Number(range) * { s: 1_000, m: 60_000, h: 3_600_000 }[unit as 's' | 'm' | 'h'];
    const first = scrapes.find((s) => s.at >= latest.at - rangeMs) ?? latest;
    const before = new Map(select(first).map((s) => [seriesKey(s.labels), s.value]));
    vector = vector.map((s) => ({ ...s, value: s.value - (before.get(seriesKey(s.labels)) ?? 0) }));
  }
  const limit = Number(threshold);
  const holds = {
    '==': (v: number) => v === limit,
    '!=': (v: number) => v !== limit,
    '>': (v: number) => v > limit,
    '<': (v: number) => v < limit,
    '>=': (v: number) => v >= limit,
    '<=': (v: number) => v <= limit,
  }[op as '=='];
  return vector.filter((s) => holds(s.value)).map(({ labels, value }) => ({ labels, value }));
}

function parseMatchers(text: string): Record<string, string> {
  const inner = text.replace(/^\{|\}$/g, '').trim();
  if (!inner) return {};
  const pairs = inner.split(',').map((p) => /^\s*([a-zA-Z_]\w*)\s*=\s*"([^"]*)"\s*$/.exec(p));
  if (pairs.some((p) => !p)) throw new Error(`only label="value" matchers are supported: ${text}`);
  return Object.fromEntries(pairs.map((p) => [p![1], p![2]]));
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

function seriesKey(labels: Record<string, string>): string {
  return JSON.stringify(Object.entries(labels).sort());
}
