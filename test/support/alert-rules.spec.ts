import { evaluateRule, loadAlertRules } from './alert-rules';

const at = (seconds: number, text: string) => ({ at: seconds * 1000, text });

describe('evaluateRule', () => {
  it('compares the latest value of each series', () => {
    const scrapes = [
      at(0, 'outbox_dead_rows{service="order"} 2\n'),
      at(5, 'outbox_dead_rows{service="order"} 0\noutbox_dead_rows{service="f"} 1\n'),
    ];
    expect(evaluateRule('outbox_dead_rows > 0', scrapes)).toEqual([
      { labels: { service: 'f' }, value: 1 },
    ]);
    expect(evaluateRule('outbox_dead_rows{service="order"} == 0', scrapes)).toHaveLength(1);
  });

  it('takes increase() over the scrapes inside the range', () => {
    const scrapes = [
      at(0, 'inbox_dead_lettered_total{service="a"} 1\n'),
      at(300, 'inbox_dead_lettered_total{service="a"} 1\n'),
      at(700, 'inbox_dead_lettered_total{service="a"} 3\n'),
    ];
    expect(evaluateRule('increase(inbox_dead_lettered_total[10m]) > 0', scrapes)).toEqual([
      { labels: { service: 'a' }, value: 2 },
    ]);
    expect(evaluateRule('increase(inbox_dead_lettered_total[1m]) > 0', scrapes)).toEqual([]);
  });

  it('refuses what it cannot evaluate honestly', () => {
    expect(() => evaluateRule('sum(rate(x[5m])) > 1', [at(0, '')])).toThrow(/cannot evaluate/);
  });

  it('can evaluate every rule of deploy/prometheus/alerts.yml', () => {
    const rules = loadAlertRules();
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(() => evaluateRule(rule.expr, [at(0, '')])).not.toThrow();
  });
});
